#!/usr/bin/env bash
# The BPMF skeleton's time check at 2-4 ranks (issue 52): results/simulated/zhou-fig12-bpmf-validation.csv
# holds hympi-bpmf measured on this project's 2-core host (run-bpmf-validation.sh, real-time priority)
# and the skeleton simulated with all ranks on ONE 2-core simulated host. This test reruns every
# committed simulated row of run-bpmf-validation.sh (--runs 0: simulation only, error against the
# committed measured rows) and checks
#   * the rerun's time per iteration equals the committed row's (1e-6 relative) and so does its error;
#   * the stated error bounds: 2 ranks within +-10%; 4 ranks below the measured time by at most 40%
#     (the simulation charges the shared cores, not the oversubscribed exchange: README).
# Needs ChEMBL-346 (data/chembl, or the fetch script's mirror ../shared/data/chembl) and an SMPI build.
# usage: check_bpmf_validation.sh ROOT SMPI_BIN   (exit 0 ok, 1 failed, 2 usage, 77 skipped)
set -euo pipefail
[ $# -eq 2 ] || { echo "check_bpmf_validation.sh: error: usage: check_bpmf_validation.sh ROOT SMPI_BIN" >&2; exit 2; }
root="$1" bin="$2"
csv="$root/results/simulated/zhou-fig12-bpmf-validation.csv"
train=""
for d in "$root/data/chembl" "$root/../shared/data/chembl"; do
  [ -r "$d/chembl-IC50-train.mm" ] && train="$d/chembl-IC50-train.mm" && break
done
[ -n "$train" ] || { echo "check_bpmf_validation.sh: skipped: no ChEMBL-346 (data/fetch-chembl.sh)"; exit 77; }
[ -x "$bin/hympi-smpi-bpmf-skeleton" ] || { echo "check_bpmf_validation.sh: skipped: no SMPI skeleton"; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp "$csv" "$work/v.csv"
# The committed cases (RANKS:PER_NODE:POLICY) and per-cost values of run-bpmf-validation.sh's rows.
# The committed rows' cases, cost scales and simulated host cores (their host's, not this one's).
read -r cases ns cores <<< "$(python3 - "$csv" <<'PY'
import csv, re, sys
cases, ns, cores = [], [], set()
for r in csv.DictReader(open(sys.argv[1])):
    m = re.search(r"\((\d+) actors on one (\d+)-core host; (one node|(\d+) emulated nodes x (\d+));", r["what"])
    if r["kind"] != "simulated" or not m:
        continue
    case = f"{m[1]}:{m[5] or m[1]}:{r['policy']}"
    cases += [case] if case not in cases else []
    ns += [r["ns_per_cost"]] if r["ns_per_cost"] not in ns else []
    cores.add(m[2])
print(",".join(cases), ",".join(ns), ",".join(sorted(cores)))
PY
)"
[[ "${cores:-}" =~ ^[0-9]+$ ]] || { echo "check_bpmf_validation.sh: FAIL: the rows name host cores '${cores:-}' (expected one count)"; exit 1; }
[ -n "$cases" ] || { echo "check_bpmf_validation.sh: FAIL: no run-bpmf-validation.sh rows in $csv"; exit 1; }
"$root/apps/smpi/run-bpmf-validation.sh" --runs 0 --cases "$cases" --ns-per-cost "$ns" --train "$train" \
  --host-cores "$cores" --real-bin /nonexistent --bin "$bin" --out "$work/v.csv" > "$work/log" 2>&1 ||
  { cat "$work/log"; echo "check_bpmf_validation.sh: FAIL: the rerun failed"; exit 1; }
python3 - "$csv" "$work/v.csv" <<'PY'
import csv, re, sys
def sims(path):
    out = {}
    for r in csv.DictReader(open(path)):
        if r["kind"] == "simulated" and "actors on one" in r["what"]:
            out.setdefault((r["what"], r["policy"], r["ns_per_cost"]), []).append(r)
    return out
old, new = sims(sys.argv[1]), sims(sys.argv[2])
bad = []
for key, rows in old.items():
    rerun = new[key][-1]  # the rerun's row is the last of its key
    for r in rows:
        a, b = float(r["time_per_iteration_s"]), float(rerun["time_per_iteration_s"])
        if abs(a - b) > 1e-6 * a:
            bad.append(f"{key}: committed {a} s, rerun {b} s")
        err = float(re.search(r"error ([-+][0-9.]+)%", r["settings"])[1])
        if err != float(re.search(r"error ([-+][0-9.]+)%", rerun["settings"])[1]):
            bad.append(f"{key}: committed error {err}%, rerun {rerun['settings']}")
        ranks = int(r["ranks"])
        if (ranks <= 2 and abs(err) > 10) or (ranks > 2 and not -40 <= err <= 0):
            bad.append(f"{key}: error {err}% outside the stated bound")
for b in bad:
    print("check_bpmf_validation.sh: FAIL:", b)
if not bad:
    print(f"check_bpmf_validation.sh: ok: {sum(map(len, old.values()))} simulated rows rerun equal, errors within bounds")
sys.exit(1 if bad else 0)
PY
