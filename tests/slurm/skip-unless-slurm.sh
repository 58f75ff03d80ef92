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
