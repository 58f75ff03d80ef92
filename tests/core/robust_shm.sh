#!/bin/sh
# Runs "$@" (an mpiexec command line) in a private mount namespace whose /dev/shm
# is a 64 MiB tmpfs, the default of Docker and several container runtimes.
# Needs root (or CAP_SYS_ADMIN); otherwise it says why and exits 77 (ctest SKIP).
if ! command -v unshare > /dev/null 2>&1; then
  echo "robust_shm: SKIP: unshare(1) is not installed"
  exit 77
fi
if ! unshare -m sh -c 'mount -t tmpfs -o size=64m tmpfs /dev/shm' 2> /tmp/robust_shm.$$; then
  echo "robust_shm: SKIP: cannot mount a private 64 MiB /dev/shm: $(cat /tmp/robust_shm.$$)"
  rm -f /tmp/robust_shm.$$
  exit 77
fi
rm -f /tmp/robust_shm.$$
exec unshare -m sh -c 'mount -t tmpfs -o size=64m tmpfs /dev/shm && exec "$@"' robust_shm "$@"
