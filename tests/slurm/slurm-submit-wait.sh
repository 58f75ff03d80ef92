#!/usr/bin/env bash
# Submits one batch job and waits for it, never longer than LIMIT seconds.
#
#   slurm-submit-wait.sh LIMIT [sbatch options...] JOBSCRIPT [script args...]
#
# Exit: 0 job COMPLETED with exit code 0; 1 job ended otherwise (FAILED, CANCELLED,
# TIMEOUT, ...) or can never start (pending on a partition limit: cancelled at once);
# 2 sbatch rejected the job; 124 LIMIT reached (the job is cancelled, not left queued).
# Prints "job <id> <STATE> exit <code>" and the job's output file path.
# Uses `scontrol show job` (works without accounting), not `sbatch --wait`.
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 LIMIT [sbatch options...] JOBSCRIPT [args...]" >&2
  exit 2
fi
limit=$1
shift

out=$(sbatch --parsable "$@" 2>&1) || {
  echo "submit-wait: sbatch rejected the job: $out" >&2
  exit 2
}
job=${out%%;*}
job=$(echo "$job" | tail -n 1)
echo "submit-wait: submitted job $job" >&2

field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$info" | head -n 1; }

cancel() {
  scancel "$job" 2>/dev/null || true
  local deadline=$((SECONDS + 20))
  while ((SECONDS < deadline)); do
    state=$(scontrol show job -o "$job" 2>/dev/null | sed -n 's/.*JobState=\([^ ]*\).*/\1/p')
    [[ -z $state || $state == CANCELLED || $state == COMPLETED || $state == FAILED ]] && return 0
    sleep 0.5
  done
}

deadline=$((SECONDS + limit))
state=UNKNOWN
while :; do
  info=$(scontrol show job -o "$job" 2>/dev/null || true)
  state=$(field JobState)
  reason=$(field Reason)
  case $state in
    COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
      break ;;
    PENDING)
      # Reasons that no amount of waiting fixes: fail fast instead of pending forever.
      case $reason in
        PartitionConfig | PartitionNodeLimit | PartitionTimeLimit | BadConstraints | AccountNotAllowed | \
          QOSMaxCpuPerJobLimit | ReqNodeNotAvail*)
          echo "submit-wait: job $job can never start (Reason=$reason); cancelling" >&2
          cancel
          echo "job $job PENDING-FOREVER reason $reason"
          exit 1 ;;
      esac ;;
    "")
      echo "submit-wait: job $job vanished from scontrol" >&2
      exit 1 ;;
  esac
  if ((SECONDS >= deadline)); then
    echo "submit-wait: job $job still $state after ${limit}s; cancelling" >&2
    cancel
    echo "job $job TIMEOUT-WAIT"
    exit 124
  fi
  sleep 1
done
code=$(field ExitCode)
echo "job $job $state exit $code output $(field StdOut)"
[[ $state == COMPLETED && $code == 0:0 ]]
