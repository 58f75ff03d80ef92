#!/usr/bin/env bash
# SMPI test of BG/P's DCMF broadcast (apps/smpi/glue/dcmf_*) on small bgp meshes, block placement.
# usage: dcmf_bcast_test.sh BIN_DIR check|time|torus|full
#   check  64 ranks (2 x 2 x 4 nodes): coordinates, shapes, the rectangle's exact bytes
#   time   128 ranks (2 x 4 x 4 nodes), 1 MiB on the first 64 (a 2 x 4 x 2 x 4 RECT box): the
#          rectangle at least 6x faster than the layer's binomial tree and 2x faster than its own
#          one color (predicted from the links before the first run: ~10x and ~2.5x; README)
#   torus  512 ranks on the 8 x 8 x 8 torus (one per node): exact bytes (quick) and an 8 x 8 plane's
#          2 colors at least 6x the binomial and 1.5x one color (measured 9.0x and 1.74x)
#   full   64 ranks: bcast_dcmf itself on RECT, IRREG and the world
# Exit 77 (ctest SKIP_RETURN_CODE) when SimGrid or the test binary is missing.
set -euo pipefail
bin="$1"; what="$2"
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
exe="$bin/hympi-smpi-dcmf-test"
[ -x "$exe" ] || { echo "SKIP: no $exe"; exit 77; }
source "$root/apps/smpi/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# The faithful set (apps/smpi/README.md, "Fidelity settings"): fair sharing, every overhead, 1200 B eager.
export HYMPI_SIM_SHARING=fair HYMPI_SIM_OVERHEADS=all
run() {  # ranks [--cores C] args...
  local np="$1" cores=(); shift
  [ "$1" != --cores ] || { cores=(--cores "$2"); shift 2; }
  python3 "$root/apps/smpi/platforms/make_platform.py" bgp --ranks "$np" "${cores[@]}" --sharing fair --out "$work/p.xml" >/dev/null
  smpirun -np "$np" -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
    --cfg=smpi/send-is-detached-thresh:1200 --cfg=smpi/bcast:binomial_tree "$exe" "$@"
}

case "$what" in
  check) run 64 check ;;
  time) run 128 time 6 2 ;;
  torus)  # the 8 x 8 x 8 torus, one rank per node: rings, stretches and relays (exact bytes), and an
          # 8 x 8 plane's 2 colors (README)
    run 512 --cores 1 check quick
    run 512 --cores 1 time 6 1.5 64 1 ;;
  full)
    run 64 full ;;
  *) echo "usage: $0 BIN_DIR check|time|torus|full" >&2; exit 2 ;;
esac
