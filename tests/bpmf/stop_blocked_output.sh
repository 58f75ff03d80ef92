#!/usr/bin/env bash
# A stop request that comes while a rank is blocked writing its per-iteration lines
# to a full pipe (a slow reader: a pager, ssh, a stalled log collector) must not cost
# a line: with the handlers installed without SA_RESTART the write failed with EINTR
# and stdio dropped the line it held (iteration 478 of 478 was missing). One process
# started directly (no launcher, whose reader never stalls), its stdout to a pipe
# nobody reads for 2 s, SIGUSR1 while it is blocked: every iteration line from 1 to
# the one in 'stopped by SIGUSR1 after iteration I' must be there.
# Usage: stop_blocked_output.sh BPMF WORK
source "$(dirname "$0")/chain_script_common.sh"
model=("${small_chain[@]}" --burnin 4 --samples 100000000 --checkpoint-every 100000000 --checkpoint-dir "$work/ckpt")
# The reader sleeps until the pipe (64 KiB, about 470 lines) is long full, signals, then reads.
( "$bpmf" "${model[@]}" 2> "$work/err" & echo $! > "$work/pid"; wait $! ) |
  (sleep 2; kill -USR1 "$(cat "$work/pid")"; timeout 20 cat > "$work/out")  # bounded: a chain that never stops
last=$(sed -n 's/^stopped by SIGUSR1 after iteration \([0-9]*\);.*/\1/p' "$work/out")
[ -n "$last" ] || { echo "no 'stopped by SIGUSR1' line"; tail -3 "$work/out"; cat "$work/err"; exit 1; }
lines=$(grep -c "^iter " "$work/out")
missing=$(for i in $(seq "$last"); do grep -q "^iter *$i/" "$work/out" || echo "$i"; done | tr '\n' ' ')
if [ "$lines" -ne "$last" ] || [ -n "$missing" ]; then
  echo "stopped after iteration $last but $lines iteration lines; missing: $missing"
  exit 1
fi
[ -s "$work/ckpt/chain.ckpt" ] || { echo "no checkpoint"; exit 1; }
echo "stopped after iteration $last with all $lines iteration lines and a checkpoint"
