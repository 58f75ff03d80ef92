#!/usr/bin/env bash
# Zhou et al. (ICPP'19) Figs 8, 9 and 10 at the paper's node counts on the simulated XC40
# (run-xc40.sh fig8, Hazel Hen-like, on-node costs on, SMPI's default fidelity; the core's
# result buffers and node windows folded: --fold-scope all, which changes no simulated time).
#   fig8   one rank per node, 4, 16 and 64 nodes, 1..32768 doubles
#   fig9   64 nodes x 3, 6, 12, 24 ranks per node, 512 and 16384 doubles (one run per point)
#   fig10  42 nodes x 24 + 1 node x 16 = 1024 ranks (block placement), 1..16384 doubles
# Each point is one simulation under `flock /work/sim.lock` (one simulation at a time on this
# machine; HYMPI_SIM_LOCK overrides) bounded by `timeout` (--limit seconds, default 3600).
# usage: run-zhou-scale.sh fig8|fig9|fig10 [--variants LIST] [--per-node LIST] [--sizes LIST]
#                          [--limit S] [--bin DIR] [--out FILE]
# Rows go to results/simulated/zhou-scale-<fig>-xc40.csv (appended), each with its platform,
# fidelity settings, fold scope and the run's host seconds and peak RSS.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help) usage; exit 0 ;; "") usage >&2; exit 2 ;; esac
fig="$1"; shift
variants=pure,hybrid-barrier; per_node=3,6,12,24; sizes=512,16384; limit=3600; bin=""; out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --variants|--per-node|--sizes|--limit|--bin|--out)
      [ $# -ge 2 ] || { echo "run-zhou-scale.sh: error: $1 needs a value" >&2; exit 2; }
      v="${1#--}"; printf -v "${v//-/_}" '%s' "$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run-zhou-scale.sh: error: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
out="${out:-$root/results/simulated/zhou-scale-$fig-xc40.csv}"
lock="${HYMPI_SIM_LOCK:-/work/sim.lock}"
# operator new folds nothing (glue/fold_alloc.cpp): its blocks may hold the core's objects (the
# agreement's per-rank strings, 114 KB from 1024 ranks on), and a folded block is every rank's; the
# data-only blocks (result buffers, node windows) stay folded by --fold-scope all. Rows: fold_new_bytes=0.
export HYMPI_SMPI_FOLD_NEW_BYTES=0
bin_opt=(); [ -z "$bin" ] || bin_opt=(--bin "$bin")
point() {  # point RUN-XC40-ARGS...: one simulation, alone on the machine, bounded
  echo "# run-xc40.sh fig8 $*"
  flock "$lock" timeout "$limit" nice -n 5 "$here/run-xc40.sh" fig8 --ops allgather --variants "$variants" \
    --fold-scope all "${bin_opt[@]}" --out "$out" "$@"
}
case "$fig" in
  fig8)
    for n in 4 16 64; do point --nodes "$n" --cores 1 --grid "1x$n" --min-size 1 --max-size 32768; done ;;
  fig9)
    for s in ${sizes//,/ }; do
      for c in ${per_node//,/ }; do point --nodes 64 --cores "$c" --grid "1x$((64 * c))" --min-size "$s" --max-size "$s"; done
    done ;;
  fig10)
    point --ranks 1024 --cores 24 --min-size 1 --max-size 16384 ;;
  *) echo "run-zhou-scale.sh: error: unknown figure '$fig' (fig8, fig9, fig10)" >&2; exit 2 ;;
esac
