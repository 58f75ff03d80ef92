#!/usr/bin/env bash
# SMPI tests: the SMPI build of hympi run under smpirun on small generated platforms.
# usage: smpi_test.sh BIN_DIR core|summa-check|bench|sweep
# Exit 77 (ctest SKIP_RETURN_CODE) when SimGrid or the SMPI build is missing.
set -euo pipefail
bin="$1"; what="$2"
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
[ -x "$bin/hympi-summa" ] || [ -x "$bin/test_collectives" ] || { echo "SKIP: no SMPI build in $bin"; exit 77; }
source "$root/apps/smpi/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export OPENBLAS_NUM_THREADS=1

platform() {  # machine ranks [cores]
  python3 "$root/apps/smpi/platforms/make_platform.py" "$1" --ranks "$2" ${3:+--cores "$3"} --out "$work/p.xml" >/dev/null
}
run() {  # ranks exe args...
  local np="$1"; shift
  smpirun -np "$np" -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" "$@"
}

case "$what" in
  core)  # the core's bit-exact collective test, 4 simulated nodes x 4 cores (SHARED split = real nodes)
    platform bgp-torus 16
    run 16 "$bin/test_collectives" ;;
  summa-check)  # real dgemm, residual check: SUMMA and HSUMMA, pure and hybrid (both syncs) are right under SMPI
    platform bgp-torus 16
    HYMPI_SMPI_REAL_DGEMM=1 run 16 "$bin/hympi-summa" -N 192 -b 16 -M 32 -a summa,hsumma --groups 2x2 \
      --policy pure,hybrid --sync flags --reps 1 --warmup 0 --check residual --no-reference-dgemm
    HYMPI_SMPI_REAL_DGEMM=1 run 16 "$bin/hympi-summa" -N 128 -b 16 -a hsumma --groups 2x2 --policy hybrid \
      --sync barrier --reps 1 --warmup 0 --check serial --no-reference-dgemm ;;
  bench)  # the collective benchmark validates its results on 2 simulated 8-core dragonfly nodes
    platform xc40-dragonfly 16 8
    run 16 "$bin/hympi-bench-collectives" --min-size 1 --max-size 2048 -i 3 -x 1 --validate --csv "$work/b.csv"
    python3 - "$work/b.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no CSV rows"
print(f"{len(rows)} benchmark rows")
PY
    ;;
  sweep)  # a small simulated sweep: G = 1 and G = P must equal SUMMA; times positive; model CSV written
    HYMPI_SMPI_BIN="$bin" "$root/apps/smpi/run-sweep.sh" --ranks "${SWEEP_RANKS:-64}" -n "${SWEEP_N:-2048}" -b 64 \
      --steps 2 --out "$work/sweep.csv"
    python3 - "$work/sweep.csv" "${SWEEP_RANKS:-64}" "$work" <<'PY'
import csv, glob, sys
rows = list(csv.DictReader(open(sys.argv[1])))
P = int(sys.argv[2])
assert all(r["kind"] == "simulated" and r["platform"] for r in rows), "rows not labelled simulated"
t = {(r["algorithm"], int(r["I"]) * int(r["J"])): float(r["time_s"]) for r in rows}
summa = t[("summa", 1)]
assert summa > 0
for G in (1, P):
    got = t[("hsumma", G)]
    assert abs(got - summa) <= 1e-6 * summa, f"HSUMMA G={G} took {got} s, SUMMA {summa} s"
models = glob.glob(sys.argv[3] + "/sweep.model-*.csv")
assert models, "no model CSV"
print(f"SUMMA {summa:.6g} s; HSUMMA by G: " + ", ".join(f"{g}:{v:.6g}" for (a, g), v in sorted(t.items()) if a == "hsumma"))
PY
    ;;
  *) echo "smpi_test.sh: unknown test '$what'" >&2; exit 2 ;;
esac
