#!/usr/bin/env bash
# jobscripts/submit.sh [--per-figure] [--dry-run] JOBSCRIPT [sbatch options...]
#
# Submits a hympi jobscript after checking here, on the login node, what would otherwise only
# fail once the job has queued and started: the built harness runs with the Python CMake found
# (tomllib or tomli), the experiment files load, the apps are built. Prints the plan (nodes and
# node-hours per point and per job, bounded by the points' timeouts), then submits
#   - one job for the jobscript's whole figure family, or
#   - with --per-figure, one job per experiment, its --nodes cut to the experiment's largest
#     point (Fig 7 needs 1 node, Fig 9 8: they need not hold the 64 nodes of Fig 8).
# --dry-run prints the sbatch commands instead. Run from the source directory, like sbatch.
# Uses the jobscripts' settings (HYMPI_BUILD, HYMPI_HARNESS, HYMPI_EXPERIMENTS,
# HYMPI_CORES_PER_NODE, ...; jobscripts/README.md). Exit 2 when a check fails (nothing submitted).
set -euo pipefail
per_figure=0 dry_run=0
while (($#)); do
  case $1 in
    --per-figure) per_figure=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    -*) echo "submit: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
(($#)) || { echo "usage: jobscripts/submit.sh [--per-figure] [--dry-run] JOBSCRIPT [sbatch options...]" >&2; exit 2; }
jobscript=$1
shift
fail() { echo "submit: error: $*" >&2; exit 2; }
[[ -f $jobscript ]] || fail "no jobscript '$jobscript'"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HYMPI_BUILD=${HYMPI_BUILD:-$ROOT/build}
HYMPI_HARNESS=${HYMPI_HARNESS:-$HYMPI_BUILD/apps/harness/hympi-harness}
[[ -x $HYMPI_HARNESS ]] || fail "no harness at $HYMPI_HARNESS: build first (jobscripts/README.md) or set HYMPI_BUILD"

# What the jobscript runs: its hympi_run_family line, unless HYMPI_EXPERIMENTS says otherwise.
family=$(sed -n 's/^hympi_run_family //p' "$jobscript")
[[ -n $family ]] || fail "$jobscript has no hympi_run_family line"
read -r launcher names <<<"$family"
launcher=${HYMPI_LAUNCHER:-$launcher}
files=()
if [[ -n ${HYMPI_EXPERIMENTS:-} ]]; then
  read -ra files <<<"$HYMPI_EXPERIMENTS"
else
  for name in $names; do files+=("$ROOT/results/experiments/cluster/$name.toml"); done
fi

# The job's size: the sbatch options given here, else the jobscript's #SBATCH defaults.
option() {  # option NAME SHORT: the last value of --NAME=V / --NAME V / SHORT V in "$@" after the two
  local name=$1 short=$2 value=""
  shift 2
  while (($#)); do
    case $1 in
      --$name=*) value=${1#*=} ;;
      --$name | $short) value=${2:-} ; shift ;;
    esac
    shift
  done
  echo "$value"
}
default() { sed -n "s/^#SBATCH --$1=//p" "$jobscript" | tail -n 1; }
nodes=$(option nodes -N "$@")
nodes=${nodes:-$(default nodes)}
cores=${HYMPI_CORES_PER_NODE:-$(option ntasks-per-node "" "$@")}
cores=${cores:-$(default ntasks-per-node)}

plan=(--plan --launcher "$launcher" ${nodes:+--nodes "$nodes"} ${cores:+--cores-per-node "$cores"})
apps=$("$HYMPI_HARNESS" --which ${cores:+--cores-per-node "$cores"} "${files[@]}") ||
  fail "the harness cannot run here or cannot read the experiments (see above)"
if grep "NOT FOUND" <<<"$apps"; then fail "build the apps above first"; fi
"$HYMPI_HARNESS" "${plan[@]}" "${files[@]}" || fail "the harness cannot plan this job (see above)"

submit() {  # submit [VAR=value] sbatch-args...
  local env=()
  [[ $1 == *=* ]] && { env=("$1"); shift; }
  if ((dry_run)); then
    echo "${env[*]}${env[*]:+ }sbatch $*"
  else
    env "${env[@]}" sbatch "$@"
  fi
}
if ((per_figure == 0)); then
  submit "$@" "$jobscript"
  exit 0
fi
for file in "${files[@]}"; do
  need=$("$HYMPI_HARNESS" "${plan[@]}" "$file" | sed -n 's/^  per job: --nodes=\([0-9]*\).*/\1/p')
  name=$(basename "$file" .toml)
  if [[ -z $need ]]; then
    echo "submit: $name: no point fits --nodes=${nodes:-?}; not submitted" >&2
    continue
  fi
  submit "HYMPI_EXPERIMENTS=$file" "$@" --nodes="$need" --job-name="hympi-$name" "$jobscript"
done
