#!/bin/sh
# The issue's ChEMBL measurement: K=32, alpha=2, 50 burn-in + 200 samples, on the
# given rank counts and policies; appends summary rows to chembl-k32.csv and keeps
# per-iteration traces in scratch/.
#   results/bpmf/run-chembl.sh [build-dir] ["np list"] ["policy list"]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
nps=${2:-"1 2"}
policies=${3:-"pure hybrid"}
data=$root/data/chembl
[ -f "$data/chembl-IC50-train.mm" ] || "$root/data/fetch-chembl.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$here/scratch"
for np in $nps; do
  for policy in $policies; do
    mpirun -np "$np" --oversubscribe --bind-to none "$build/apps/bpmf/hympi-bpmf" \
      --train "$data/chembl-IC50-train.mm" --test "$data/chembl-IC50-test.mm" \
      -K 32 --alpha 2 --burnin 50 --samples 200 --seed 42 --policy "$policy" \
      --output-dir "$here" --csv chembl-k32.csv --trace-csv "scratch/chembl-k32-trace.csv" \
      > "$here/scratch/chembl-np$np-$policy.log" 2>&1
    grep summary "$here/scratch/chembl-np$np-$policy.log"
  done
done
