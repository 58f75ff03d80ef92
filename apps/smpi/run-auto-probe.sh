#!/usr/bin/env bash
# run-auto-probe.sh: groups=auto's measured probe (hympi-auto-groups) in
# simulation, on the same platform, flags and broadcast algorithm as a committed
# sweep (run-sweep.sh), so apps/smpi/auto_choice.py can check its pick against
# the swept times. Writes results/simulated/auto-probe-<machine>-<ranks>-<n>-<b>-<bcast>.csv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

usage() {
  cat <<USAGE
usage: run-auto-probe.sh [options]
  --bin DIR         SMPI build's bin/ (default: \$HYMPI_SMPI_BIN or build-smpi/bin or build/smpi/bin)
  --machine NAME    bgp-torus | xc40-dragonfly | ib-fattree   (default bgp-torus)
  --ranks P         simulated ranks (a square grid)              (default 1024)
  -n N              matrix size                                  (default 16384)
  -b B              block size b = M                             (default 256)
  --bcast ALG       SMPI bcast algorithm                         (default binomial_tree)
  --gflops R        DGEMM rate for the prediction [Gflop/s]      (default: the machine's)
  --out FILE        CSV to write (default results/simulated/auto-probe-<machine>-<ranks>-<n>-<b>-<bcast>.csv)
$(fold_new_usage)
USAGE
}

bin="${HYMPI_SMPI_BIN:-}"; machine=bgp-torus; ranks=1024; n=16384; b=256; bcast=binomial_tree; gflops=""; out=""
fold_new="${HYMPI_SMPI_FOLD_NEW_BYTES:-0}"
script=run-auto-probe.sh valued="bin machine ranks n b bcast gflops out fold_new"
source "$here/run-common.sh"
read_options "$@"
require_smpi_bin hympi-auto-groups
case "$machine" in
  bgp-torus) gf=3.4 ;; xc40-dragonfly) gf=36 ;; ib-fattree) gf=30 ;;
  *) echo "run-auto-probe.sh: unknown machine '$machine'" >&2; exit 2 ;;
esac
gflops="${gflops:-$gf}"
out="${out:-$root/results/simulated/auto-probe-$machine-$ranks-$n-$b-$bcast.csv}"

source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
platform="$work/$machine-$ranks.xml"
python3 "$here/platforms/make_platform.py" "$machine" --ranks "$ranks" --out "$platform" >/dev/null
export HYMPI_SMPI_FOLD_BYTES="${HYMPI_SMPI_FOLD_BYTES:-65536}" OPENBLAS_NUM_THREADS=1
fold_new_setup  # operator new folds nothing unless --fold-new (run-common.sh: its blocks may hold objects)
echo "# SIMULATED (SimGrid SMPI) $machine P=$ranks n=$n b=M=$b bcast=$bcast: groups=auto probe"
t0=$(date +%s)
smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
  --cfg=smpi/bcast:"$bcast" "$bin/hympi-auto-groups" -N "$n" -b "$b" --gflops "$gflops" --reps 1 \
  --csv "$work/run.csv" > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
grep "groups=auto" "$work/log"
mkdir -p "$(dirname "$out")"
python3 "$here/label_csv.py" "$work/run.csv" "$out.new" kind=simulated machine="$machine" smpi_bcast="$bcast" \
  "${fold_new_label[@]}"
mv "$out.new" "$out"
echo "wrote $out [host $(( $(date +%s) - t0 )) s]"
