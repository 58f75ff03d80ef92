#!/usr/bin/env bash
# The group-creation cost of the thesis' Figs 3.6 (BG/P), 3.7 and 3.16 (Graphene), simulated:
# hympi-smpi-split-cost (probe/split_cost.cpp) times, per G, the two communicators of a G-group
# hierarchy made with MPI_Comm_split (the thesis' HiMPI) and with MPI_Comm_create_group (what
# hympi uses), and hympi's whole creation of the grouped OP. The simulated time of each call is
# SimGrid 3.32's implementation of it (see apps/smpi/README.md "Group creation"), not MPICH's or
# Open MPI's. One simulation, bounded by --timeout; rows appended to --out.
set -euo pipefail
{  # read whole before running
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${HYMPI_SMPI_BIN:-}"; machine=graphene-gige; ranks=128; cores=""; op=reduce; bytes=1024; groups=1,2,4,8
reps=2; out=""; timeout=300
usage() {
  cat <<USAGE
usage: run-split-cost.sh [options]
  --machine M     graphene-gige | graphene-ib | bgp                       (default graphene-gige)
  --ranks P       simulated ranks                                         (default 128)
  --cores C       ranks per node (graphene-* only, 1..4; default the machine's 4)
  --op OP         bcast | reduce: the grouped collective hympi creates    (default reduce)
  --bytes B       its message                                             (default 1024)
  --groups LIST   comma list of G in 1..P                                 (default 1,2,4,8)
  --reps R        repetitions, the minimum is kept                        (default 2)
  --timeout S     stop the simulation after S host seconds (exit 1)       (default 300)
  --out FILE      CSV to append to (default results/simulated/split-cost.csv)
  --bin DIR       SMPI build's bin/ (default: \$HYMPI_SMPI_BIN or build-smpi/bin or build/smpi/bin)
Rows: kind=simulated, machine, platform, op, ranks, ranks_per_node, bytes, groups, split_s (two
MPI_Comm_split of the world), create_group_s (MPI_Comm_create_group by each group and by the leaders),
hympi_create_s (the grouped OP's creation), the fidelity columns, host_s, max_rss_mb, reps (each time the minimum of that many).
Fidelity settings (the machine's faithful set by default):
USAGE
  fidelity_usage
}
script=run-split-cost.sh
valued="bin machine ranks cores op bytes groups reps out timeout"
source "$here/run-common.sh"
fidelity="" sharing="" overheads="" eager_bytes="" bcast="" ring_merge=""
valued+=" $fidelity_options"
read_options "$@"
die() { echo "run-split-cost.sh: error: $*" >&2; exit 2; }
case "$machine" in graphene-gige|graphene-ib|bgp) ;; *) die "--machine must be graphene-gige, graphene-ib or bgp, got '$machine'" ;; esac
case "$op" in bcast|reduce) ;; *) die "--op must be bcast or reduce, got '$op'" ;; esac
[[ "$ranks" =~ ^[0-9]+$ ]] && [ "$ranks" -ge 2 ] || die "bad --ranks '$ranks'"
cores_args=(); per_node=4
if [ -n "$cores" ]; then
  [[ "$machine" == graphene-* ]] || die "--cores is Graphene's (bgp: 4 per node)"
  [[ "$cores" =~ ^[1-4]$ ]] || die "bad --cores '$cores' (1..4)"
  cores_args=(--cores "$cores"); per_node="$cores"
fi
[[ "$bytes" =~ ^[0-9]+$ ]] && [ "$bytes" -ge 8 ] || die "bad --bytes '$bytes' (>= 8)"
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "bad --reps '$reps'"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "bad --timeout '$timeout'"
[[ "$groups" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--groups takes a comma list of G, not '$groups'"
out_dir="$(dirname "$out")"
[ -d "$out_dir" ] && [ -w "$out_dir" ] || die "cannot write --out '$out' (no such writable folder)"
for g in ${groups//,/ }; do
  [[ "$g" =~ ^[0-9]+$ ]] && [ "$g" -ge 1 ] && [ "$g" -le "$ranks" ] || die "bad G '$g' in --groups (expected 1..$ranks)"
done
fidelity_setup "$machine" "$([ "$machine" = bgp ] && echo scatter_LR_allgather || echo "")"
require_smpi_bin hympi-smpi-split-cost
out="${out:-$root/results/simulated/split-cost.csv}"
source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
platform="$work/$machine-$ranks.xml"
python3 "$here/platforms/make_platform.py" "$machine" --ranks "$ranks" "${cores_args[@]}" --placement block \
  "${fidelity_platform[@]}" --out "$platform" >/dev/null
rc=0
timeout --kill-after=10 "$timeout" /usr/bin/time -f "%e %M" -o "$work/time" smpirun -np "$ranks" -platform "$platform" \
  -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}" "${fidelity_cfg[@]}" "$bin/hympi-smpi-split-cost" \
  "$op" "$bytes" "$groups" "$reps" > "$work/run.out" 2> "$work/log" || rc=$?
if [ "$rc" -ne 0 ]; then
  tail -20 "$work/log" >&2
  echo "run-split-cost.sh: the simulation failed (exit $rc$([ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || echo ": passed --timeout $timeout s"))" >&2
  exit 1
fi
read -r host_s rss_kb < <(tail -1 "$work/time")
platform_rec="make_platform.py $machine --ranks $ranks${cores_args[*]:+ ${cores_args[*]}} --placement block${fidelity_platform[*]:+ ${fidelity_platform[*]}}"
python3 - "$work/run.out" "$out" "$machine" "$platform_rec" "$per_node" "$host_s" "$rss_kb" "$reps" "${fidelity_labels[@]}" <<'PY'
import csv, os, sys
run, out, machine, platform, per_node, host_s, rss_kb, reps = sys.argv[1:9]
fidelity = dict(kv.split("=", 1) for kv in sys.argv[9:])
rows = list(csv.DictReader(line for line in open(run) if not line.startswith("#")))
if not rows:
    sys.exit("run-split-cost.sh: error: the simulation printed no rows")
fields = ["kind", "machine", "platform", "op", "ranks", "ranks_per_node", "bytes", "groups", "split_s",
          "create_group_s", "hympi_create_s"] + list(fidelity) + ["host_s", "max_rss_mb", "reps"]
new = not os.path.exists(out) or os.path.getsize(out) == 0
if not new and open(out).readline().strip().split(",") != fields:
    sys.exit(f"run-split-cost.sh: error: {out} has other columns; use another --out")
with open(out, "a", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    if new:
        w.writeheader()
    for r in rows:
        w.writerow(dict(r, kind="simulated", machine=machine, platform=platform, ranks_per_node=per_node, **fidelity,
                        host_s=host_s, max_rss_mb=int(rss_kb) // 1024, reps=reps))
        print(f"{r['op']} P={r['ranks']} G={r['groups']}: split {float(r['split_s']) * 1e3:.4f} ms, "
              f"create_group {float(r['create_group_s']) * 1e3:.4f} ms, hympi create {float(r['hympi_create_s']) * 1e3:.4f} ms")
PY
echo "[host $host_s s, max RSS $((rss_kb / 1024)) MB]"
exit 0
}
