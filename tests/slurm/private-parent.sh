#!/usr/bin/env bash
# private-parent.sh JOBSCRIPT: a second private Slurm whose directory lies under a fresh 0700
# parent (like a checkout under /root or a private home) starts, runs JOBSCRIPT in its tiny
# form to COMPLETED, stops, and leaves no run directory behind in /tmp.
# Needs HYMPI_ROOT, HYMPI_BUILD. Exit 77 where the test cluster cannot run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
jobscript=$1
# shellcheck source=skip-unless-slurm.sh
source "$HERE/skip-unless-slurm.sh"
slurm_test_needs HYMPI_ROOT HYMPI_BUILD

mkdir -p "$HYMPI_BUILD/tmp"
parent=$(mktemp -d "$HYMPI_BUILD/tmp/private-XXXXXX")  # mktemp -d makes it 0700
chmod 0700 "$parent"
export SLURM_LOCAL_DIR=$parent/slurm SLURM_LOCAL_PORT=  # first free pair: beside the fixture's cluster
cleanup() {
  "$HERE/slurm-local.sh" stop || true
  rm -rf "$parent"
}
trap cleanup EXIT
"$HERE/slurm-local.sh" start
rundir=$(cat "$SLURM_LOCAL_DIR/rundir")
echo "ok: started under $(stat -c %a "$parent") parent $parent, run directory $rundir"
HYMPI_BUILD=$HYMPI_BUILD "$HERE/run-jobscript.sh" "$jobscript" private-parent
"$HERE/slurm-local.sh" stop
if [[ -e $rundir ]]; then
  echo "FAIL: stop left the run directory $rundir behind"
  exit 1
fi
echo "PASS: a private Slurm under a 0700 parent ran $(basename "$jobscript") to COMPLETED and cleaned up"
