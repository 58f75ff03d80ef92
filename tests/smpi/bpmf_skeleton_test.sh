#!/usr/bin/env bash
# The BPMF skeleton (apps/smpi/probe/bpmf_skeleton.cpp) makes the real hympi-bpmf's MPI calls:
# both run under SMPI with time-independent traces, and per iteration (the calls a run of 4
# iterations makes beyond one of 2) every rank's calls and sizes must be equal
# (compare_ti_iterations.py), on a synthetic matrix with uneven rows, for:
#   2 ranks on one node, pure; 4 ranks on 2 nodes x 2, hybrid (flags); 3 ranks on nodes of 2 + 1,
#   hybrid (barrier), adaptive noise; 4 ranks on one simulated node split round-robin into 2
#   emulated nodes (HYMPI_RANKS_PER_NODE=2, HYMPI_PLACEMENT=round-robin), hybrid.
# Then -h and refused options (exit 2 with the skeleton's name).
# usage: bpmf_skeleton_test.sh SMPI_BIN_DIR    (exit 77: no SimGrid or no SMPI BPMF build)
set -euo pipefail
bin="$1"
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
[ -x "$bin/hympi-smpi-bpmf-skeleton" ] && [ -x "$bin/hympi-bpmf" ] || { echo "SKIP: no SMPI BPMF build in $bin"; exit 77; }
source "$root/apps/smpi/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export OPENBLAS_NUM_THREADS=1

# 240 x 30, 1-9 ratings per row (uneven partition), 20% of them held out as the test set.
python3 - "$work" <<'PY'
import random, sys
rng = random.Random(7)
train, test = [], []
for r in range(1, 241):
    for c in rng.sample(range(1, 31), rng.randint(1, 9)):
        (test if rng.random() < 0.2 else train).append(f"{r} {c} {rng.uniform(4, 9):.3f}")
for name, rows in (("train", train), ("test", test)):
    with open(f"{sys.argv[1]}/{name}.mm", "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write(f"240 30 {len(rows)}\n" + "\n".join(rows) + "\n")
PY

case_() {  # case_ NAME RANKS CORES_PER_NODE ARGS... (both programs' options)
  local name="$1" np="$2" cores="$3"; shift 3
  python3 "$root/apps/smpi/platforms/make_platform.py" xc40-dragonfly --ranks "$np" --cores "$cores" \
    --out "$work/$name.xml" > /dev/null
  local run=(smpirun -np "$np" -platform "$work/$name.xml" -hostfile "$work/$name.hosts" "${HYMPI_SMPI_FLAGS[@]}"
             --cfg=contexts/stack-size:8192)
  for n in 2 4; do
    timeout 120 "${run[@]}" -trace-ti --cfg=tracing/filename:"$work/$name-real$n.txt" "$bin/hympi-bpmf" \
      --train "$work/train.mm" --test "$work/test.mm" -K 8 --burnin "$n" --samples 0 -q \
      --output-dir "$work/$name-out$n" "$@" > "$work/log" 2>&1 || { cat "$work/log"; echo "FAIL $name: hympi-bpmf"; exit 1; }
    timeout 120 "${run[@]}" -trace-ti --cfg=tracing/filename:"$work/$name-skel$n.txt" \
      "$bin/hympi-smpi-bpmf-skeleton" --train "$work/train.mm" -K 8 --iterations "$n" "$@" > "$work/log" 2>&1 ||
      { cat "$work/log"; echo "FAIL $name: skeleton"; exit 1; }
  done
  echo -n "$name: "
  python3 "$here/compare_ti_iterations.py" "$work/$name-real2.txt" "$work/$name-real4.txt" \
    "$work/$name-skel2.txt" "$work/$name-skel4.txt" 2 || { echo "FAIL $name"; exit 1; }
}
case_ pure2 2 2 --policy pure
case_ hybrid4 4 2 --policy hybrid --sync flags
case_ adaptive3 3 2 --policy hybrid --sync barrier --noise adaptive
HYMPI_RANKS_PER_NODE=2 HYMPI_PLACEMENT=round-robin case_ roundrobin4 4 4 --policy hybrid

# -h, and bad options refused by name (exit 2).
python3 "$root/apps/smpi/platforms/make_platform.py" xc40-dragonfly --ranks 2 --cores 2 --out "$work/p.xml" > /dev/null
skel=(smpirun -np 2 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" "$bin/hympi-smpi-bpmf-skeleton")
timeout 60 "${skel[@]}" -h 2>&1 | grep -q -- "--compute-scale" || { echo "FAIL: -h"; exit 1; }  # smpirun takes --help
bad() {  # bad MESSAGE ARGS...
  local message="$1" rc=0; shift
  timeout 60 "${skel[@]}" "$@" > "$work/err" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "hympi-smpi-bpmf-skeleton: error: .*$message" "$work/err" ||
    { cat "$work/err"; echo "FAIL: '$*' not refused with '$message'"; exit 1; }
}
bad "policy" --train "$work/train.mm" --policy mixed
bad "latent" --train "$work/train.mm" -K 0
bad "compute-scale" --train "$work/train.mm" --compute-scale -1
bad "nope.mm" --train "$work/nope.mm"

# The Fig 12 runner at a tiny size: a row per policy and rank count with its settings; the
# sampling charge scales with --compute-scale and --ns-per-cost, and nothing else changes it.
fig12() {  # fig12 OUT ARGS...
  local out="$1"; shift
  HYMPI_SIM_LOCK="$work/lock" "$root/apps/smpi/run-bpmf-xc40.sh" --bin "$bin" --train "$work/train.mm" --ranks 2,3 \
    --cores 2 --iterations 2 -K 8 --out "$out" "$@" > "$work/log" 2>&1 || { cat "$work/log"; echo "FAIL: run-bpmf-xc40.sh $*"; exit 1; }
}
for args in "--ranks ''|--ranks takes a comma list" "--compute-scale -1|--compute-scale takes a positive number" \
            "-K 0|-K takes a positive integer"; do  # refused before any simulation, nothing written
  eval "set -- ${args%%|*}"
  rc=0; "$root/apps/smpi/run-bpmf-xc40.sh" --bin "$bin" --train "$work/train.mm" --out "$work/bad.csv" "$@" > "$work/err" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q -- "${args#*|}" "$work/err" && [ ! -e "$work/bad.csv" ] ||
    { cat "$work/err"; echo "FAIL: run-bpmf-xc40.sh $* (exit $rc)"; exit 1; }
done
fig12 "$work/f1.csv"
fig12 "$work/f2.csv" --compute-scale 2
fig12 "$work/f3.csv" --ns-per-cost 3.86e-9
python3 - "$work" <<'PY'
import csv, sys
rows = {f: list(csv.DictReader(open(f"{sys.argv[1]}/{f}.csv"))) for f in ("f1", "f2", "f3")}
base = rows["f1"]
assert sorted((r["ranks"], r["policy"]) for r in base) == [("2", "hybrid"), ("2", "pure"), ("3", "hybrid"), ("3", "pure")], base
for r in base:
    assert r["kind"] == "simulated" and r["machine"] == "xc40-dragonfly" and r["fold_scope"] == "none", r
    assert r["platform"].endswith(".xml") and r["train"] == "train.mm" and float(r["run_host_s"]) >= 0, r
    assert r["ns_per_cost"] == "1.93e-09" and r["compute_scale"] == "1" and r["iterations"] == "2", r
for name in ("f2", "f3"):
    for a, b in zip(base, rows[name]):
        ratio = float(b["sampling_s"]) / float(a["sampling_s"])
        assert abs(ratio - 2) < 1e-6, (name, ratio, a, b)
        assert float(b["exchange_s"]) > 0 and float(b["time_s"]) > float(a["time_s"]), (name, a, b)
print("run-bpmf-xc40.sh: rows labelled; sampling x2 with --compute-scale 2 and with --ns-per-cost x2")
PY
echo "PASS"
