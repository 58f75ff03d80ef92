#!/usr/bin/env bash
# One SIGUSR1 to the launcher while the ranks load their data (issue 54, case 14):
# the ranks catch it from before the load, so the stop is taken once the data are
# read, like any other stop: exit 1 and one "stopped by SIGUSR1 while loading the
# data" line saying that no checkpoint was written (no iteration ran). Before, the
# handlers came after the load and the signal killed the ranks (signal 10, mpirun exit
# 138, no line). The training file is a fifo this script feeds only after the signal,
# so the load is under way for as long as it takes. Two rounds on 2 ranks: a new chain
# (which leaves nothing in its directories and runs to the end when started again)
# and a resume of tests/bpmf/data/chain-v1 (its checkpoint unchanged).
# The ranks exit 1; MPICH's hydra mpiexec (4.0.2), once it has forwarded a signal, loses one
# or both ranks' codes from run to run (-print-all-exitcodes: 0,256 / 256,0 / 0,0; strace:
# exit_group(1) in both; an 18-line MPI program does the same), so the launcher's code must
# be 1 under Open MPI's mpirun, which passes the ranks' code on, and 0 or 1 under hydra: the
# exit-code check bites under Open MPI only (the MPICH suite checks the stop line).
# Usage: stop_during_load.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
source "$(dirname "$0")/chain_script_common.sh"
data=$(cd "$(dirname "$0")/data" && pwd)
model=(--test "$data/good_test.mm" -K 2 --burnin 2 --samples 4 --seed 3 --quiet --checkpoint-every 1)
fail() { echo "FAILED: $*"; exit 1; }
# The exit codes the launcher may give for ranks that stopped (hydra: 0 or 1, see above).
if "${launch[0]}" --version 2>&1 | grep -q HYDRA; then launcher_stop_rc="0 1"; else launcher_stop_rc="1"; fi
# Whether process $1 catches signal $2 (its bit in /proc's SigCgt mask).
catches() { local mask; mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null) && (((0x$mask >> ($2 - 1)) & 1)); }

# stop_while_loading NAME ARGS...: the chain of ARGS reading its training matrix from the
# fifo $work/NAME.mm, SIGUSR1 to the launcher while rank 0 waits for the data; then the
# data. Checks exit 1, the one line, no error.
stop_while_loading() {
  local name=$1 fifo=$work/$1.mm out=$work/$1.out
  shift
  mkfifo "$fifo"
  "${launch[@]}" 2 "$bpmf" --train "$fifo" "${model[@]}" "$@" > "$out" 2>&1 &
  local launcher=$!
  # The writer's open returns once rank 0 has opened the fifo: it is inside the load.
  ( : > "$work/$name.opened"; until [ -e "$work/$name.go" ]; do sleep 0.05; done; cat "$data/good_train.mm" ) \
    > "$fifo" &
  local writer=$! ranks=() _
  for _ in $(seq 600); do [ -e "$work/$name.opened" ] && break; kill -0 "$launcher" 2> /dev/null || break; sleep 0.05; done
  [ -e "$work/$name.opened" ] || { kill "$launcher" "$writer"; cat "$out"; fail "$name: rank 0 never opened $fifo"; }
  # Both ranks up and, once the fix is in, catching SIGUSR1 (at most 5 s: without it the
  # signal is sent anyway and kills them, which is what this test catches).
  local catching=no
  for _ in $(seq 100); do
    mapfile -t ranks < <(ranks_of "$launcher")
    [ "${#ranks[@]}" -eq 2 ] && catches "${ranks[0]}" 10 && catches "${ranks[1]}" 10 && catching=yes && break
    sleep 0.05
  done
  echo "$name: rank 0 is reading the fifo; ${#ranks[@]} ranks, catching SIGUSR1: $catching"
  kill -USR1 "$launcher"
  sleep 1  # the launcher forwards it; rank 0 is still waiting for the data
  : > "$work/$name.go"
  wait "$launcher"
  local rc=$?
  wait "$writer" 2> /dev/null
  local lines
  lines=$(grep -c "^stopped by SIGUSR1 while loading the data, before any iteration; no checkpoint written" "$out")
  if [[ " $launcher_stop_rc " != *" $rc "* ]] || [ "$lines" -ne 1 ] || grep -q "hympi-bpmf: error" "$out"; then
    cat "$out"
    fail "$name: expected launcher exit ${launcher_stop_rc// / or } and one 'stopped by SIGUSR1 while loading the data' line, got exit $rc, $lines line(s)"
  fi
  echo "$name: $(grep "^stopped by" "$out")"
}

# A new chain: nothing of it is left to refuse the same command started again.
stop_while_loading new --checkpoint-dir "$work/new/ckpt" --save-samples-every 1 --samples-dir "$work/new/samples"
[ -z "$(ls -A "$work/new/ckpt" "$work/new/samples" 2> /dev/null)" ] ||
  fail "new: the stopped chain left files: $(ls -R "$work/new")"
"${launch[@]}" 2 "$bpmf" --train "$data/good_train.mm" "${model[@]}" --checkpoint-dir "$work/new/ckpt" \
  --save-samples-every 1 --samples-dir "$work/new/samples" > "$work/again.out" 2>&1 ||
  { cat "$work/again.out"; fail "new: the same command again did not run to the end"; }

# A resumed chain: its checkpoint stays as it was.
cp -r "$data/chain-v1" "$work/v1"
stop_while_loading resume --resume "$work/v1"
cmp -s "$data/chain-v1/chain.ckpt" "$work/v1/chain.ckpt" || fail "resume: the checkpoint changed"
echo "stop during load: all cases as expected"
