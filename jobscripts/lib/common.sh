# Sourced by every jobscript. Finds the source tree, the build and the harness, then runs
# one figure family's cluster experiments through hympi-harness. Settings (environment;
# pass them with `sbatch --export=ALL,NAME=value` or export them before sbatch):
#   HYMPI_ROOT        source tree (default: the directory sbatch was called from)
#   HYMPI_BUILD       build tree with the apps (default $HYMPI_ROOT/build)
#   HYMPI_HARNESS     the harness (default $HYMPI_BUILD/apps/harness/hympi-harness)
#   HYMPI_RESULTS     output root (default $HYMPI_ROOT/results/cluster-<cluster>[-tiny])
#   HYMPI_EXPERIMENTS experiment files to run instead of the family's defaults
#   HYMPI_TINY=1      run each experiment's [tiny] section (seconds; used by the tests)
#   HYMPI_LAUNCHER    srun | mpirun (the flavour sets the default; "local" is refused)
#   HYMPI_BINDING     core (default: one core per rank, block distribution) | none | launcher
#   HYMPI_SRUN_MPI    srun --mpi=... (ib flavour: pmix)
#   HYMPI_LAUNCHER_ARGS  extra launcher options, e.g. "--cpu-bind=cores"
#   HYMPI_EMULATE_NODES=1  emulate the experiments' nodes inside the allocation
#   HYMPI_CORES_PER_NODE   what "full" nodes mean (default: --ntasks-per-node)
#   HYMPI_ENV_SCRIPT  a file sourced first (module loads, spack env, ...)
#   HYMPI_HARNESS_ARGS   extra harness options, e.g. "--set ranks_per_node=16"

hympi_fail() {
  echo "hympi jobscript: error: $*" >&2
  exit 2
}

if [[ -n ${HYMPI_ENV_SCRIPT:-} ]]; then
  [[ -r $HYMPI_ENV_SCRIPT ]] || hympi_fail "HYMPI_ENV_SCRIPT=$HYMPI_ENV_SCRIPT is not readable"
  # Lmod and many site scripts read unset variables: not under set -u.
  set +u
  # shellcheck disable=SC1090
  source "$HYMPI_ENV_SCRIPT"
  set -u
fi
HYMPI_BUILD=${HYMPI_BUILD:-$HYMPI_ROOT/build}
HYMPI_HARNESS=${HYMPI_HARNESS:-$HYMPI_BUILD/apps/harness/hympi-harness}
[[ -x $HYMPI_HARNESS ]] || hympi_fail "no harness at $HYMPI_HARNESS: build first (see jobscripts/README.md) or set HYMPI_BUILD"
HYMPI_TINY=${HYMPI_TINY:-0}
_suffix=""
[[ $HYMPI_TINY == 1 ]] && _suffix=-tiny
HYMPI_RESULTS=${HYMPI_RESULTS:-$HYMPI_ROOT/results/cluster-${SLURM_CLUSTER_NAME:-cluster}$_suffix}
HYMPI_EXPERIMENT_DIR=${HYMPI_EXPERIMENT_DIR:-$HYMPI_ROOT/results/experiments/cluster}
# Open MPI refuses to run as root unless told; harmless elsewhere. Thread counts: the harness
# gives every rank one OpenMP/BLAS thread whatever is exported here, and records it.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# hympi_run_family LAUNCHER EXPERIMENT_NAME...
hympi_run_family() {
  local launcher=${HYMPI_LAUNCHER:-$1}
  shift
  case $launcher in
    srun | mpirun) ;;
    *) hympi_fail "HYMPI_LAUNCHER=$launcher: a jobscript runs real nodes with srun or mpirun" \
      "(local would run every point oversubscribed on the batch node); unset it or choose one" ;;
  esac
  local files=() name
  if [[ -n ${HYMPI_EXPERIMENTS:-} ]]; then
    read -ra files <<<"$HYMPI_EXPERIMENTS"
  else
    for name in "$@"; do files+=("$HYMPI_EXPERIMENT_DIR/$name.toml"); done
  fi
  local args=(--launcher "$launcher" --results-dir "$HYMPI_RESULTS")
  [[ $HYMPI_TINY == 1 ]] && args+=(--tiny)
  [[ ${HYMPI_EMULATE_NODES:-0} == 1 ]] && args+=(--emulate-nodes)
  # Points that do not fit the allocation are skipped (reported), not failed.
  [[ -n ${SLURM_JOB_NUM_NODES:-} ]] && args+=(--max-nodes "$SLURM_JOB_NUM_NODES")
  if [[ ${HYMPI_EMULATE_NODES:-0} == 1 && -n ${SLURM_NTASKS:-} ]]; then
    args+=(--max-ranks "$SLURM_NTASKS")
  fi
  if [[ -n ${HYMPI_HARNESS_ARGS:-} ]]; then
    local extra
    read -ra extra <<<"$HYMPI_HARNESS_ARGS"
    args+=("${extra[@]}")
  fi
  echo "hympi job ${SLURM_JOB_ID:-?} on ${SLURM_JOB_NUM_NODES:-?} node(s) [${SLURM_JOB_NODELIST:-?}]," \
    "${SLURM_NTASKS:-?} tasks, launcher $launcher${HYMPI_SRUN_MPI:+ --mpi=$HYMPI_SRUN_MPI}, tiny=$HYMPI_TINY"
  echo "results: $HYMPI_RESULTS"
  "$HYMPI_HARNESS" "${args[@]}" "${files[@]}"
}
