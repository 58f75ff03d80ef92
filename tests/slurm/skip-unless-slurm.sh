# Sourced by the Slurm test scripts: skip_unless_slurm exits 77 (ctest SKIP_RETURN_CODE) with
# the reason when the private test cluster cannot start here, so every test says why.
skip_unless_slurm() {
  local p missing=()
  for p in slurmctld slurmd munged munge unmunge sinfo scontrol squeue scancel sbatch; do
    PATH=/usr/sbin:/usr/local/sbin:$PATH command -v "$p" >/dev/null || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "SKIP: not installed: ${missing[*]}" \
      "(apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge)"
    exit 77
  fi
  if (($(id -u) != 0)); then
    echo "SKIP: the private Slurm test cluster needs root (slurmd starts job steps as their user)"
    exit 77
  fi
}

# The start of every Slurm test: skip where the cluster cannot run here, then fail
# (not skip) when one of the named settings is missing, since CMake always passes them.
slurm_test_needs() {
  local v
  skip_unless_slurm
  for v; do
    [ -n "${!v:-}" ] || { echo "FAIL: $v is not set"; exit 1; }
  done
}

# Points the Slurm clients at the fixture's cluster (SLURM_LOCAL_DIR); fails when it is not up.
use_running_cluster() {
  export SLURM_CONF=$SLURM_LOCAL_DIR/slurm.conf
  if ! "$(dirname "${BASH_SOURCE[0]}")/slurm-local.sh" status >/dev/null; then
    echo "FAIL: the local Slurm cluster is not running (did slurm.start fail?)"
    exit 1
  fi
}
