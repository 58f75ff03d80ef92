#!/usr/bin/env bash
# fail-fast.sh JOBSCRIPT: on the local test cluster, requests that can never run must be
# rejected at submission (EnforcePartLimits=ALL) instead of pending forever, and a job that
# fails must be reported as failed by slurm-submit-wait.sh. Exit 77 where the test cluster cannot run (skip-unless-slurm.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
jobscript=$1
# shellcheck source=skip-unless-slurm.sh
source "$HERE/skip-unless-slurm.sh"
slurm_test_needs SLURM_LOCAL_DIR HYMPI_BUILD
use_running_cluster
work=$HYMPI_BUILD/tmp/slurm-jobs/fail-fast
rm -rf "$work"
mkdir -p "$work"

expect_rejected() {
  local what=$1 start rc=0 out
  shift
  start=$SECONDS
  out=$(timeout 20 "$HERE/slurm-submit-wait.sh" 30 --output="$work/rejected-%j.out" "$@" 2>&1) || rc=$?
  if ((rc != 2)); then
    echo "FAIL: $what: expected an immediate rejection (exit 2), got exit $rc: $out"
    exit 1
  fi
  if ((SECONDS - start > 10)); then
    echo "FAIL: $what: rejection took $((SECONDS - start)) s"
    exit 1
  fi
  echo "ok: $what rejected in $((SECONDS - start)) s: $(echo "$out" | tail -n 1)"
}

expect_rejected "--nodes=4 on a 1-node cluster" --nodes=4 --ntasks-per-node=1 "$jobscript"
expect_rejected "--ntasks=64 on one node" --nodes=1 --ntasks=64 --ntasks-per-node=64 "$jobscript"
if [[ -n $(squeue -h -o %i) ]]; then
  echo "FAIL: rejected requests left jobs in the queue: $(squeue -h)"
  exit 1
fi

printf '#!/bin/bash\necho failing on purpose\nexit 3\n' >"$work/fail.sh"
rc=0
out=$("$HERE/slurm-submit-wait.sh" 60 --nodes=1 --ntasks=1 --output="$work/fail-%j.out" "$work/fail.sh" 2>&1) || rc=$?
if ((rc != 1)) || ! grep -q "FAILED exit 3:0" <<<"$out"; then
  echo "FAIL: a failing job was not reported as FAILED with exit 3 (exit $rc): $out"
  exit 1
fi
echo "ok: failing job reported: $(echo "$out" | tail -n 1)"
echo "PASS: impossible requests fail fast, failures are reported"
