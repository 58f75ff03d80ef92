#!/usr/bin/env bash
# A real signal: SIGTERM to every rank of a running hympi-bpmf chain (what a batch
# system does at the time limit) makes it write a checkpoint and exit 1 after the
# current iteration; resumed on another rank count and policy, it ends with the
# digests of the uninterrupted run.
# Usage: sigterm_resume.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
source "$(dirname "$0")/chain_script_common.sh"
model=("${small_chain[@]}" --burnin 10 --samples 290 --quiet)
digests() { grep -o 'predictions digest [0-9a-f]*, predictive std digest [0-9a-f]*' "$1"; }

"${launch[@]}" 1 "$bpmf" "${model[@]}" > "$work/reference.out" 2>&1 || { cat "$work/reference.out"; exit 1; }

"${launch[@]}" 2 "$bpmf" "${model[@]}" --policy hybrid --checkpoint-every 5 --checkpoint-dir "$work/ckpt" \
  > "$work/killed.out" 2>&1 &
launcher=$!
# The ranks are the launcher's descendants running the app (by process id), found while they
# start: a yielding MPI (MPICH with tests/support/mpich_yield.c) runs the whole chain in well
# under a second, so looking for them only after the first checkpoint can find none left.
ranks=()
for _ in $(seq 400); do
  ranks=()
  for p in $(descendants "$launcher"); do
    [ "$(ps -o comm= -p "$p" 2>/dev/null)" = "hympi-bpmf" ] && ranks+=("$p")
  done
  [ "${#ranks[@]}" -eq 2 ] && break
  sleep 0.02
done
[ "${#ranks[@]}" -eq 2 ] || { echo "found ${#ranks[@]} ranks, expected 2"; kill "$launcher"; exit 1; }
for _ in $(seq 2000); do [ -e "$work/ckpt/chain.ckpt" ] && break; sleep 0.005; done
kill -TERM "${ranks[@]}"
wait "$launcher"
rc=$?
cat "$work/killed.out"
[ "$rc" -ne 0 ] || { echo "the terminated run exited 0 (finished before the signal?)"; exit 1; }
grep -q "stopped by SIGTERM after iteration" "$work/killed.out" || { echo "no checkpoint on SIGTERM"; exit 1; }

"${launch[@]}" 3 "$bpmf" "${model[@]}" --policy pure --resume "$work/ckpt" > "$work/resumed.out" 2>&1
rc=$?
cat "$work/resumed.out"
[ "$rc" -eq 0 ] || { echo "resume failed (exit $rc)"; exit 1; }
want=$(digests "$work/reference.out") got=$(digests "$work/resumed.out")
[ -n "$want" ] && [ "$want" = "$got" ] || { echo "resumed: '$got', uninterrupted: '$want'"; exit 1; }
echo "SIGTERM and resume: $got"
