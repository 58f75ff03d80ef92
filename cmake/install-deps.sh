#!/usr/bin/env bash
# Installs every Debian/Ubuntu package hympi needs. Idempotent: packages already
# present are skipped by apt. When not root, prints the exact command instead.
set -euo pipefail

packages=(
  build-essential cmake ninja-build gfortran pkg-config git
  libopenmpi-dev openmpi-bin libscalapack-openmpi-dev
  libmpich-dev mpich libscalapack-mpich-dev scalapack-mpi-test
  libopenblas-dev libeigen3-dev libcli11-dev librandom123-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-matplotlib python3-tomli
)
# Optional groups: simulated scale (SimGrid) and the local Slurm used by the jobscript tests.
if [[ "${HYMPI_WITH_SIMGRID:-1}" == 1 ]]; then packages+=(libsimgrid-dev); fi
if [[ "${HYMPI_WITH_SLURM:-1}" == 1 ]]; then packages+=(slurmctld slurmd slurm-client munge); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps: not root; run:"
  echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive ${cmd[*]}"
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
apt-get update -q
DEBIAN_FRONTEND=noninteractive "${cmd[@]}"
