#!/usr/bin/env bash
# The chapter-3 probes time the flat collective (G = 1, every gain's reference) warm: their first object
# runs once untimed, since SimGrid charges the process's first collective of some algorithms a one-time
# cost (apps/smpi/README.md "The flat reference timed warm"). On graphene-gige, 32 ranks one per node,
# 16 KiB: hympi-smpi-hier-coll's redbcast allreduce and hympi-smpi-hier-bcast's ompi broadcast give the
# same G = 1 time at --reps 1 as at --reps 3 (cold they were 7.82 vs 4.34 ms and 5.74 vs 2.26 ms), and
# the later G's too; a --bytes 8,16384 list is warm at 16 KiB (cold: G = 4's gain 2.93 instead of 1.16);
# BG/P's DCMF (16 ranks, 64 KiB) gives G = 4 the same time at --reps 1 as at --reps 2; warmup_audit.py
# reruns a CSV's G = 1 rows and writes committed / warm.
# ~10 s; 77 without SimGrid. usage: warmup_test.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
[ -x "$bin/hympi-smpi-hier-coll" ] && [ -x "$bin/hympi-smpi-hier-bcast" ] || { echo "no SMPI probes in '$bin'" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
common=(--bin "$bin" --machine graphene-gige --ranks 32 --cores 1 --bytes 16384 --groups 1,4)
for r in 1 3; do
  "$root/apps/smpi/run-hier-coll.sh" "${common[@]}" --op allreduce --flat redbcast --reps $r --out "$work/coll-$r.csv" >/dev/null
  "$root/apps/smpi/run-hier-bcast.sh" "${common[@]}" --reps $r --out "$work/bcast-$r.csv" >/dev/null
done
# A list of sizes is warm at every size: 8,16384 gives 16384's rows as a run of 16384 alone.
"$root/apps/smpi/run-hier-bcast.sh" "${common[@]/16384/8,16384}" --out "$work/bcast-list.csv" >/dev/null
# BG/P's DCMF classifies every new communicator at its first broadcast: G = 4 at --reps 1 = --reps 2.
for r in 1 2; do
  "$root/apps/smpi/run-hier-bcast.sh" --bin "$bin" --ranks 16 --bytes 65536 --groups 1,4 --reps $r --out "$work/dcmf-$r.csv" >/dev/null
done
python3 - "$work" "$root" "$bin" <<'PY'
import csv, os, subprocess, sys
work, root, bin_ = sys.argv[1:4]
def times(name):
    return [(r["groups"], r["time_s"]) for r in csv.DictReader(open(os.path.join(work, name)))]
for kind in ("coll", "bcast"):
    one, three = times(f"{kind}-1.csv"), times(f"{kind}-3.csv")
    assert one == three and len(one) == 2, f"{kind}: --reps 1 {one} against --reps 3 {three}: the first G was timed cold"
listed = [(g, t) for g, t, b in ((r["groups"], r["time_s"], r["bytes"]) for r in
          csv.DictReader(open(os.path.join(work, "bcast-list.csv")))) if b == "16384"]
assert listed == times("bcast-1.csv"), f"--bytes 8,16384: 16 KiB rows {listed} against a run of 16384 alone {times('bcast-1.csv')}"
assert times("dcmf-1.csv") == times("dcmf-2.csv"), f"DCMF --reps 1 {times('dcmf-1.csv')} against --reps 2 {times('dcmf-2.csv')}"
# The audit: a CSV whose committed G = 1 time is twice the warm one reads 2.0000.
flat = float(times("coll-3.csv")[0][1])
rows = list(csv.DictReader(open(os.path.join(work, "coll-3.csv"))))
fake = os.path.join(work, "graphene-thesis-fig3_99-fake.csv")
with open(fake, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerow(dict(rows[0], time_s=repr(2 * flat)))
out = os.path.join(work, "audit.csv")
p = subprocess.run([sys.executable, os.path.join(root, "apps/smpi/warmup_audit.py"), "--csv-glob", fake, "--out", out,
                    "--bin", bin_], capture_output=True, text=True)
assert p.returncode == 0, p.stderr
audit = list(csv.DictReader(open(out)))
assert len(audit) == 1 and audit[0]["committed_over_warm"] == "2.0000", audit
print(f"warmup: ok (G = 1 at 32 ranks: redbcast {flat * 1e3:.3f} ms at --reps 1 and 3; ompi bcast "
      f"{float(times('bcast-1.csv')[0][1]) * 1e3:.3f} ms; the audit reads 2.0000 for a doubled row)")
PY
