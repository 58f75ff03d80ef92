#!/bin/sh
# Laptop analogue of Zhou et al. Fig 12: BPMF time per iteration with the pure
# (Ori_BPMF) and the hybrid (Hy_BPMF) exchange on 1..4 ranks of one machine, ChEMBL,
# K=32, short runs (10 burn-in + 20 samples), policies alternated, repeated.
#   results/bpmf/run-fig12.sh [build-dir] ["np list"] [repeats] [extra hympi-bpmf options...]
# e.g. --barrier-timing: a timed barrier before each exchange, so the exchange column
# is the collective alone (load imbalance goes to sync).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
nps=${2:-"1 2 3 4"}
repeats=${3:-2}
shift $(($# < 3 ? $# : 3))
data=$root/data/chembl
[ -f "$data/chembl-IC50-train.mm" ] || "$root/data/fetch-chembl.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rep=1
while [ "$rep" -le "$repeats" ]; do
  for np in $nps; do
    for policy in pure hybrid; do
      mpirun -np "$np" --oversubscribe --bind-to none "$build/apps/bpmf/hympi-bpmf" \
        --train "$data/chembl-IC50-train.mm" --test "$data/chembl-IC50-test.mm" \
        -K 32 --alpha 2 --burnin 10 --samples 20 --seed 42 --policy "$policy" --quiet \
        --output-dir "$here" --csv fig12.csv "$@" | grep "summary: [0-9]* iterations" | sed "s/^/np=$np $policy: /"
    done
  done
  rep=$((rep + 1))
done
