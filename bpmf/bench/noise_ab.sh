#!/bin/bash
# Time per iteration of adaptive vs fixed noise (issue 53): PAIRS interleaved pairs of
# the same chain, fixed:ALPHA then adaptive (A/B/A/B...), each a separate hympi-bpmf
# run; appends one CSV row per run (the program's summary row plus the pair, the
# order, the load average before the run, the median and minimum of its iterations'
# times) and prints each pair's ratios adaptive / fixed and their medians over the
# pairs. The machine's load is the caller's to state; the 1-minute load average is
# recorded per run.
#
# usage: noise_ab.sh BPMF_BINARY OUT.csv [PAIRS=5] [extra hympi-bpmf options...]
# e.g.   noise_ab.sh build/apps/bpmf/hympi-bpmf results/bpmf/noise-bench.csv 5 \
#          --train data/chembl/chembl-IC50-train.mm --test data/chembl/chembl-IC50-test.mm \
#          -K 32 --burnin 10 --samples 30
# Environment: RANKS (default 1), LAUNCH (default "mpirun --oversubscribe -np $RANKS").
set -euo pipefail
if [ $# -lt 2 ] || [ "$1" = --help ] || [ "$1" = -h ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  case "${1:-}" in --help|-h) exit 0 ;; esac
  exit 2
fi
bpmf=$1 out=$2 pairs=${3:-5}
shift $(($# < 3 ? $# : 3))
[ -x "$bpmf" ] || { echo "noise_ab.sh: error: '$bpmf' is not an executable" >&2; exit 2; }
case $pairs in '' | *[!0-9]* | 0) echo "noise_ab.sh: error: PAIRS '$pairs' is not a positive integer" >&2; exit 2 ;; esac
ranks=${RANKS:-1}
launch=${LAUNCH:-mpirun --oversubscribe -np $ranks}
export OPENBLAS_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # pair order noise [hympi-bpmf options]
  local pair=$1 order=$2 noise=$3 load
  shift 3
  load=$(cut -d' ' -f1 /proc/loadavg)
  # shellcheck disable=SC2086
  $launch "$bpmf" "$@" --noise "$noise" --csv "$work/run.csv" --trace-csv "$work/trace.csv" > "$work/run.log" 2>&1 ||
    { cat "$work/run.log" >&2; echo "noise_ab.sh: error: the run failed" >&2; exit 1; }
  local row iters
  row=$(tail -n 1 "$work/run.csv")
  # The median and the minimum of the iterations' wall times (every iteration of the
  # run): the minimum is the least disturbed by the other processes.
  iters=$(/usr/bin/python3 -c '
import csv, statistics, sys
t = [float(r["seconds"]) for r in csv.DictReader(open(sys.argv[1]))]
print("%.6g,%.6g" % (statistics.median(t), min(t)))' "$work/trace.csv")
  if [ ! -s "$out" ]; then
    echo "pair,order,load1_before,iter_seconds_median,iter_seconds_min,$(head -n 1 "$work/run.csv")" > "$out"
  fi
  echo "$pair,$order,$load,$iters,$row" >> "$out"
  rm -f "$work/run.csv" "$work/trace.csv"
}

start=0
[ -f "$out" ] && start=$(wc -l < "$out")
for p in $(seq 1 "$pairs"); do
  run "$p" 1 fixed:2 "$@"
  run "$p" 2 adaptive "$@"
done
/usr/bin/python3 - "$out" "$start" << 'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))[max(0, int(sys.argv[2]) - 1):]
by = {}
for r in rows:
    by.setdefault(r["pair"], {})[r["noise"].split(":")[0]] = r
ratios, sampling, medians, minimums = [], [], [], []
for p, d in by.items():
    if "fixed" in d and "adaptive" in d:
        a, f = d["adaptive"], d["fixed"]
        ratios.append(float(a["seconds_per_iteration"]) / float(f["seconds_per_iteration"]))
        sampling.append(float(a["sampling_per_iteration"]) / float(f["sampling_per_iteration"]))
        medians.append(float(a["iter_seconds_median"]) / float(f["iter_seconds_median"]))
        minimums.append(float(a["iter_seconds_min"]) / float(f["iter_seconds_min"]))
        print("pair %s: s/iteration fixed %.4f adaptive %.4f ratio %.3f; sampling %.3f; iteration median %.3f, "
              "minimum %.3f; load %s / %s" % (p, float(f["seconds_per_iteration"]), float(a["seconds_per_iteration"]),
                                            ratios[-1], sampling[-1], medians[-1], minimums[-1], f["load1_before"],
                                            a["load1_before"]))
if ratios:
    print("median over %d pairs of the ratio adaptive/fixed: mean s/iteration %.3f (pairs %.3f..%.3f), sampling "
          "%.3f, iteration median %.3f (pairs %.3f..%.3f), iteration minimum %.3f (pairs %.3f..%.3f)" % (
              len(ratios), statistics.median(ratios), min(ratios), max(ratios), statistics.median(sampling),
              statistics.median(medians), min(medians), max(medians), statistics.median(minimums), min(minimums),
              max(minimums)))
EOF
