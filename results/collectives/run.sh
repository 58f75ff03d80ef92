#!/bin/sh
# Regenerates the collective benchmark CSVs and the Zhou et al. Fig 7-10
# analogues (PNG) of this folder at laptop scale, in a couple of minutes.
#   results/collectives/run.sh [build-dir]      (default: ./build)
# Needs a built hympi-bench-collectives and /usr/bin/python3 with matplotlib.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
bench=$build/apps/bench_collectives/hympi-bench-collectives
[ -x "$bench" ] || { echo "run.sh: $bench not found; build it first: ninja -C $build hympi-bench-collectives" >&2; exit 1; }
mpiexec=$(sed -n 's/^MPIEXEC_EXECUTABLE:FILEPATH=//p' "$build/CMakeCache.txt")
[ -n "$mpiexec" ] || mpiexec=mpiexec
flags=""
if "$mpiexec" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
  flags="--oversubscribe --bind-to none"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Iterations for the runs with more ranks than cores (a wait can cost a time slice, not microseconds).
small="-i ${HYMPI_BENCH_ITERS:-100} -x ${HYMPI_BENCH_WARMUP:-10}"

run() {  # run <csv> <np> <benchmark options...>
  csv=$1 np=$2
  shift 2
  echo "== $np ranks: $*" >&2
  # shellcheck disable=SC2086
  "$mpiexec" -n "$np" $flags "$bench" --csv "$here/$csv" "$@" >> "$here/${csv%.csv}.txt"
}

rm -f "$here"/fig*.csv "$here"/fig*.txt
{ echo "cores=$(nproc)"; echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)";
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "load=$(cut -d' ' -f1-3 /proc/loadavg)"; } > "$here/machine.txt"

# Fig 7: one node, latency vs size (OSU default iterations); the issue's target
# ratios are printed at the end of fig7_onenode.txt. Then the exchange alone.
run fig7_onenode.csv 2 --ranks-per-node 0
run fig7_onenode_untimed_write.csv 2 --ranks-per-node 0 --untimed-write
# Fig 8: one rank per emulated node.
run fig8_one_rank_per_node.csv 2 --ranks-per-node 1
run fig8_one_rank_per_node.csv 4 --ranks-per-node 1 $small
# Fig 9: two emulated nodes, 1..3 ranks per node.
for rpn in 1 2 3; do
  run fig9_ranks_per_node.csv $((2 * rpn)) --ranks-per-node $rpn $small
done
# Fig 10: irregularly populated nodes, round-robin placement.
run fig10_irregular.csv 4 --node-sizes 1,3 --placement roundrobin $small
run fig10_irregular.csv 4 --node-sizes 3,1 --placement block $small
run fig10_irregular.csv 6 --node-sizes 1,2,3 --placement roundrobin $small

/usr/bin/python3 "$here/plot.py" "$here"
/usr/bin/python3 "$here/plot.py" "$here" --stat median
