#!/usr/bin/env bash
# Regenerates the laptop-scale figures on 2 cores: builds what is missing, waits (bounded)
# for a quiet machine, runs every experiment in results/experiments/laptop/ through
# hympi-harness (fresh measurements, every point launched --repeat times) into a run
# directory results/runs/<date>-<host>-<revision>/ (ignored by git: the committed
# references stay as they are), then every results/<family>/plot*.py on the run's
# <family>/ folder (PNGs beside the run's CSVs, drawn beside the committed reference).
#
#   apps/harness/reproduce-laptop.sh [--build-dir DIR] [--resume] [--tiny] [--only NAME]...
#
#   --build-dir DIR    build tree (default $HYMPI_BUILD or <source>/build; configured if new)
#   --results-dir D    where the CSVs and PNGs go (default: a new run directory)
#   --update-reference write into results/<family>/ itself, replacing the committed references
#   --repeat N         launches per point (default 3; statistics in <csv stem>.stats.csv)
#   --ci-width PCT     adaptive: launch again until the 95% interval of each median is within
#                      PCT% (at least 6, at most --max-repeat 12 launches)
#   --quiet-wait S     wait up to S seconds for a quiet machine before starting (default 120;
#                      then it warns and goes on: the busy points are flagged)
#   --resume           keep earlier results and skip points already done (after an interruption)
#   --tiny             each experiment's seconds-long [tiny] variant (a smoke test)
#   --only NAME        run only this experiment (file stem, e.g. zhou-fig7); repeatable
#   --no-plots         measure only
# Exit status: 0 when every point and every plot succeeded.
#   env: HYMPI_ARCH  CPU target of a new build (default native: built where it runs)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${HYMPI_BUILD:-$ROOT/build}
RESULTS=
fresh=1 tiny=0 plots=1 only=() repeat=3 ci_width='' quiet_wait=120
while (($#)); do
  case $1 in
    --build-dir) BUILD=$2; shift 2 ;;
    --results-dir) RESULTS=$2; shift 2 ;;
    --update-reference) RESULTS=$ROOT/results; shift ;;
    --repeat) repeat=$2; shift 2 ;;
    --ci-width) ci_width=$2; shift 2 ;;
    --quiet-wait) quiet_wait=$2; shift 2 ;;
    --resume) fresh=0; shift ;;
    --tiny) tiny=1; shift ;;
    --only) only+=("$2"); shift 2 ;;
    --no-plots) plots=0; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) echo "reproduce-laptop: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
start=$SECONDS
say() { echo "== reproduce-laptop: $*"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1

# 0. Dependencies (idempotent; when not root it prints the apt-get line and stops here).
"$ROOT/cmake/install-deps.sh"

# 1. Build (only the apps the experiments need, at most 2 jobs: laptops have few cores).
if [[ ! -f $BUILD/CMakeCache.txt ]]; then
  say "configuring $BUILD"
  cmake -G Ninja -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHYMPI_ARCH="${HYMPI_ARCH:-native}" ${HYMPI_CMAKE_ARGS:-}
fi
for target in hympi-bench-collectives hympi-summa hympi-bpmf; do
  say "building $target"
  cmake --build "$BUILD" --target "$target" -j "${HYMPI_BUILD_JOBS:-2}" >/dev/null ||
    say "WARNING: could not build $target; its experiments will fail"
done
HARNESS=$BUILD/apps/harness/hympi-harness
[[ -x $HARNESS ]] || { say "no harness at $HARNESS"; exit 2; }
[[ -n $RESULTS ]] || RESULTS=$("$HARNESS" run-dir)
say "results go to $RESULTS"

# 2. Which experiments; the ChEMBL ones (zhou-fig12, bpmf-chembl-k32) need the data (fetched
#    from a mirror or the web).
files=()
for f in "$ROOT"/results/experiments/laptop/*.toml; do
  name=$(basename "$f" .toml)
  if ((${#only[@]})) && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  files+=("$f")
done
chembl=()
if ((${#files[@]})); then mapfile -t chembl < <(grep -l 'data/chembl/' "${files[@]}" || true); fi
if ((tiny == 0)) && ((${#chembl[@]})) && [[ ! -f $ROOT/data/chembl/chembl-IC50-train.mm ]]; then
  say "fetching ChEMBL for ${chembl[*]##*/}"
  if ! "$ROOT/data/fetch-chembl.sh"; then
    say "WARNING: no ChEMBL data: skipping ${chembl[*]##*/} (run data/fetch-chembl.sh)"
    kept=()
    for f in "${files[@]}"; do [[ " ${chembl[*]} " == *" $f "* ]] || kept+=("$f"); done
    files=("${kept[@]}")
  fi
fi

# 3. Measure, on a quiet machine if it gets quiet within --quiet-wait seconds.
if ! "$HARNESS" quiet --wait "$quiet_wait"; then
  say "WARNING: the machine is busy (other processes use the cores); measuring anyway, busy points are flagged"
fi
args=(--results-dir "$RESULTS" --repeat "$repeat")
[[ -n $ci_width ]] && args+=(--ci-width "$ci_width" --max-repeat 12)
((fresh)) && args+=(--fresh)
((tiny)) && args+=(--tiny)
say "running ${#files[@]} experiment(s)"
harness_rc=0
if ((${#files[@]})); then
  "$HARNESS" "${args[@]}" "${files[@]}" || harness_rc=$?
fi

# 4. Plot: each results/<family>/plot*.py takes the folder of CSVs it draws (the run's <family>/;
#    families the run did not measure, e.g. simulated/, are left alone).
plot_rc=0
if ((plots)); then
  for plot in "$ROOT"/results/*/plot*.py; do
    family=$(basename "$(dirname "$plot")")
    folder=() # the committed references: every script on its own folder, as always
    if [[ $RESULTS != "$ROOT/results" ]]; then
      compgen -G "$RESULTS/$family/*.csv" >/dev/null || continue
      folder=("$RESULTS/$family")
    fi
    say "plotting $family ($(basename "$plot"))"
    MPLBACKEND=Agg /usr/bin/python3 "$plot" "${folder[@]}" || { plot_rc=1; say "WARNING: $plot failed"; }
  done
fi
say "done in $((SECONDS - start)) s (harness exit $harness_rc); CSVs, statistics and PNGs under $RESULTS"
[[ $RESULTS == "$ROOT/results" ]] ||
  say "compare with the committed references: $HARNESS compare $RESULTS $ROOT/results"
((harness_rc == 0 && plot_rc == 0))
