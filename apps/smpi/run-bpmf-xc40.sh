#!/usr/bin/env bash
# Zhou et al. (ICPP'19) Fig 12 by simulation: Ori_BPMF (pure) vs Hy_BPMF (hybrid) from 24 to
# 1024 cores of the simulated XC40 (xc40-dragonfly, 24-core nodes, block placement; 1024 =
# 42 nodes x 24 + 1 x 16), through hympi-smpi-bpmf-skeleton (probe/bpmf_skeleton.cpp: the
# sampler's partition and collectives, the sampling charged from its per-item cost model).
# usage: run-bpmf-xc40.sh [--ranks LIST] [--cores C] [--iterations N] [--train FILE] [-K K]
#                         [--ns-per-cost S] [--compute-scale X] [--sync flags|barrier]
#                         [--limit S] [--bin DIR] [--out FILE]
# --ns-per-cost: this host's seconds per unit of bpmf::item_cost (default 1.93e-9: hympi-bpmf's
#   CPU seconds per iteration on ChEMBL-346, K = 32, one rank, over the model's sum; README).
# --compute-scale: the XC40 core's sampling time over this host's (default 1: an assumption,
#   the rows say so; 0.5 and 2 bound it in the README).
# Each point is one simulation under `flock` (HYMPI_SIM_LOCK, default /work/sim.lock) bounded by
# `timeout --limit` (default 1800 s). No memory folding (HYMPI_SMPI_FOLD_BYTES unset): folded
# operator-new blocks would make every rank count its items into one array. Rows:
# results/simulated/zhou-fig12-bpmf-xc40.csv
# (appended), each with its platform, settings, host seconds and peak RSS.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
script=run-bpmf-xc40.sh
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
ranks_list=24,48,96,192,384,768,1024; cores=24; iterations=20; train="$root/data/chembl/chembl-IC50-train.mm"
K=32; ns_per_cost=1.93e-9; compute_scale=1; sync=flags; limit=1800; bin=""; out=""
valued="ranks_list cores iterations train K ns_per_cost compute_scale sync limit bin out"
source "$here/run-common.sh"
args=()
while [ $# -gt 0 ]; do  # --ranks is ranks_list here (run-common's ranks is one count)
  case "$1" in --ranks) args+=(--ranks-list "${2:-}"); shift; [ $# -gt 0 ] && shift ;; *) args+=("$1"); shift ;; esac
done
read_options ${args[@]+"${args[@]}"}
[ -r "$train" ] || { echo "$script: error: cannot read --train '$train' (data/fetch-chembl.sh fetches ChEMBL-346)" >&2; exit 2; }
case "$sync" in flags|barrier) ;; *) echo "$script: error: --sync is flags or barrier, not '$sync'" >&2; exit 2 ;; esac
[[ "$ranks_list" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
  { echo "$script: error: --ranks takes a comma list of positive integers, not '$ranks_list'" >&2; exit 2; }
for v in cores iterations K limit; do
  flag="--$v"; [ "$v" != K ] || flag=-K
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "$script: error: $flag takes a positive integer, not '${!v}'" >&2; exit 2; }
done
for v in ns_per_cost compute_scale; do
  python3 -c "import math, sys; x = float(sys.argv[1]); sys.exit(not (x > 0 and math.isfinite(x)))" "${!v}" 2>/dev/null ||
    { echo "$script: error: --${v//_/-} takes a positive number, not '${!v}'" >&2; exit 2; }
done
ranks="${ranks_list##*,}"
require_smpi_bin hympi-smpi-bpmf-skeleton
out="${out:-$root/results/simulated/zhou-fig12-bpmf-xc40.csv}"
mkdir -p "$(dirname "$out")"
lock="${HYMPI_SIM_LOCK:-/work/sim.lock}"
source "$here/smpi-flags.sh"
unset HYMPI_SMPI_FOLD_BYTES HYMPI_SMPI_FOLD_SCOPE
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
keep="$(dirname "$out")/platforms"; mkdir -p "$keep"
train_rec="$(basename "$train")"
echo "# SIMULATED (SimGrid SMPI) xc40-dragonfly, $cores cores per node: BPMF pure vs hybrid, $train_rec, K=$K, $iterations iterations"
for r in ${ranks_list//,/ }; do
  platform="$work/xc40-dragonfly-$r-c$cores-shmon.xml"
  python3 "$here/platforms/make_platform.py" xc40-dragonfly --ranks "$r" --cores "$cores" --out "$platform" >/dev/null
  keep_copy "$keep" "$platform" "${platform%.xml}.hosts"
  platform_rec="$(cd "$keep" && pwd)/$(basename "$platform")"; platform_rec="${platform_rec#"$root"/}"
  echo "# $r ranks ($(( (r + cores - 1) / cores )) nodes)"
  if ! OPENBLAS_NUM_THREADS=1 flock "$lock" timeout "$limit" nice -n 5 /usr/bin/time -f '%e %M' -o "$work/time" \
      smpirun -np "$r" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
      "$bin/hympi-smpi-bpmf-skeleton" --train "$train" -K "$K" --iterations "$iterations" --policy pure,hybrid \
      --sync "$sync" --ns-per-cost "$ns_per_cost" --compute-scale "$compute_scale" --csv "$work/run.csv" \
      > "$work/log" 2>&1; then
    cat "$work/log" >&2
    echo "$script: the $r-rank simulation failed (rows before it are kept in $out)" >&2
    exit 1
  fi
  grep '^bpmf ' "$work/log" || true
  read -r host_s rss_kb < "$work/time"
  python3 "$here/label_csv.py" "$work/run.csv" "$out" kind=simulated machine=xc40-dragonfly platform="$platform_rec" \
    cores_per_node="$cores" shm_costs=on fidelity=smpi-default fold_scope=none train="$train_rec" \
    run_host_s="$host_s" run_peak_rss_mb="$((rss_kb / 1024))"
done
echo "rows -> $out"
