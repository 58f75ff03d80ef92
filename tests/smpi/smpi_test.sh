#!/usr/bin/env bash
# SMPI tests: the SMPI build of hympi run under smpirun on small generated platforms.
# usage: smpi_test.sh BIN_DIR core|summa-check|bench|sweep|setup|onnode
# Exit 77 (ctest SKIP_RETURN_CODE) when SimGrid or the SMPI build is missing.
set -euo pipefail
bin="$1"; what="$2"
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
[ -x "$bin/hympi-summa" ] || [ -x "$bin/collectives_test" ] || { echo "SKIP: no SMPI build in $bin"; exit 77; }
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
    # Results, not times: coarse 1 us flag polls (the platform's 0.1 us cost ~1.5x the host time).
    platform bgp-torus 16
    HYMPI_SMPI_POLL_US=1 run 16 "$bin/collectives_test" ;;
  summa-check)  # real dgemm, residual check: SUMMA and HSUMMA, pure and hybrid (both syncs) are right under SMPI
    platform bgp-torus 16
    HYMPI_SMPI_REAL_DGEMM=1 run 16 "$bin/hympi-summa" -N 192 -b 16 -M 32 -a summa,hsumma --groups 2x2 \
      --policy pure,hybrid --lookahead 0,1 --sync flags --reps 1 --warmup 0 --check residual --no-reference-dgemm
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
  sweep)  # a simulated sweep over G (check_sweep.py: every G, broadcast structure, G = 1 and P equal SUMMA)
    ranks="${SWEEP_RANKS:-64}"
    groups="${SWEEP_GROUPS:-$(python3 -c "import math; s = math.isqrt($ranks); print(','.join(str(4**i) for i in range(s.bit_length()) if 4**i <= $ranks))")}"
    HYMPI_SMPI_BIN="$bin" "$root/apps/smpi/run-sweep.sh" --ranks "$ranks" -n "${SWEEP_N:-2048}" -b "${SWEEP_B:-64}" \
      --steps "${SWEEP_STEPS:-2}" --groups "$groups" --out "$work/sweep.csv" ${SWEEP_ONE_PROCESS:+--one-process}
    python3 "$here/check_sweep.py" "$work/sweep.csv" "$ranks" "$groups" "$work"
    if [ -z "${SWEEP_RANKS:-}" ]; then  # the default (64-rank) test also covers a non-square grid: 32 = 4 x 8
      HYMPI_SMPI_BIN="$bin" "$root/apps/smpi/run-sweep.sh" --ranks 32 -n 512 -b 64 --steps 2 --out "$work/grid/sweep.csv"
      python3 "$here/check_sweep.py" "$work/grid/sweep.csv" 32 1,2,4,8,16,32 "$work/grid" 4x8
      # --eager-bytes 0: every send rendezvous (the 32-64 KiB panels are eager by SMPI's default),
      # so SUMMA waits longer, and the rows say so
      HYMPI_SMPI_BIN="$bin" "$root/apps/smpi/run-sweep.sh" --ranks 32 -n 512 -b 64 --steps 2 --groups 1 \
        --eager-bytes 0 --out "$work/eager/sweep.csv"
      python3 - "$work/grid/sweep.csv" "$work/eager/sweep.csv" <<'PY'
import csv, sys
summa = [next(r for r in csv.DictReader(open(f)) if r["algorithm"] == "summa") for f in sys.argv[1:]]
default, rendezvous = summa
assert "eager_bytes" not in default and rendezvous["eager_bytes"] == "0", (default.keys(), rendezvous)
t0, t1 = float(default["time_s"]), float(rendezvous["time_s"])
assert t1 > t0 * 1.0001, f"--eager-bytes 0 did not change SUMMA's time: {t1} vs {t0} (eager)"
print(f"--eager-bytes 0: SUMMA {t1:.6g} s vs {t0:.6g} s eager, rows labelled")
PY
      bad() {  # bad() MESSAGE ARGS...: run-sweep.sh refuses ARGS with exit 2, naming the problem
        local message="$1"; shift
        if HYMPI_SMPI_BIN="$bin" "$root/apps/smpi/run-sweep.sh" "$@" --out "$work/bad.csv" 2> "$work/err"; then
          echo "run-sweep.sh $* was accepted" >&2; exit 1
        fi
        grep -qF -e "$message" "$work/err" || { echo "run-sweep.sh $*: expected '$message', got:" >&2; cat "$work/err" >&2; exit 1; }
        [ ! -e "$work/bad.csv" ] || { echo "run-sweep.sh $* wrote rows" >&2; exit 1; }
      }
      bad "n/P = 128 and n/Q = 64 must be multiples of b = 128" --ranks 32 -n 512 -b 128
      bad "-n 500 must be a multiple of the grid's P = 4 and Q = 8" --ranks 32 -n 500 -b 4
      bad "--grid 4x4 has 16 ranks but --ranks is 32" --ranks 32 --grid 4x4 -n 512 -b 64
      bad "G=3 has no I x J shape dividing the grid 4x8" --ranks 32 -n 512 -b 64 --groups 1,3
      bad "groups 8x2 must divide the grid 4x8" --ranks 32 -n 512 -b 64 --groups 8x2
      bad "--eager-bytes must be a byte count (0 to 999999999), got '-5'" --ranks 32 -n 512 -b 64 --eager-bytes -5
      echo "non-square grid: 4x8 swept, bad inputs refused"
    fi ;;
  setup)  # communicator setup at scale: grid communicators right (members, order) and cheap on the host
    ranks="${SETUP_RANKS:-4096}"; side=$(python3 -c "import math; print(math.isqrt($ranks))")
    groups=$(python3 -c "import math; print(math.isqrt($side))")
    platform bgp-torus "$ranks"
    run "$ranks" "$bin/hympi-smpi-setup-cost" "$groups" "$groups" ;;
  onnode)  # on-node costs: one XC40 node, Zhou Fig 11 (8 x 8, s = 8, 256) and Fig 7 (24 ranks), vs the committed CSVs
    # (Fig 7 with the committed run's variants: a variant's time depends on the skew the one before left);
    # Zhou Fig 8 at 8 nodes x 1 rank: hybrid behind pure by its charged fences
    export HYMPI_SMPI_BIN="$bin"
    "$root/apps/smpi/run-xc40.sh" fig11 --nodes 1 --cores 64 --grid 8x8 --blocks 8,256 --steps 8 --sync barrier \
      --out "$work/fig11.csv"
    "$root/apps/smpi/run-xc40.sh" fig8 --nodes 1 --cores 24 --grid 1x24 --ops allgather \
      --variants pure,hybrid-barrier,hybrid-flags,node-barrier --min-size 1 --max-size 1024 --out "$work/fig7.csv"
    "$root/apps/smpi/run-xc40.sh" fig8 --nodes 8 --cores 1 --grid 2x4 --ops allgather \
      --variants pure,hybrid-barrier,hybrid-flags --min-size 1 --max-size 1024 --out "$work/fig8x1.csv"
    python3 "$here/check_onnode.py" "$work/fig11.csv" "$work/fig7.csv" "$work/fig8x1.csv" \
      "$root/results/simulated/zhou-fig11-xc40-1node-8x8.csv" "$root/results/simulated/zhou-fig7-xc40-1node.csv" ;;
  *) echo "smpi_test.sh: unknown test '$what'" >&2; exit 2 ;;
esac
