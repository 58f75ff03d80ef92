#!/usr/bin/env bash
# Stopping a chain through its launcher, as people and batch systems do it: two
# SIGTERMs to mpirun 50 ms apart, and `timeout 3 mpirun ...` (which signals mpirun
# and then its whole process group: two signals again). Each must leave a whole
# checkpoint (no periodic one: everything would be lost). Open MPI 4's mpirun exits
# at once on a second signal and its ranks die about a second later without any
# signal; MPICH's mpiexec forwards each SIGTERM. Three rounds of each, to show it is
# not luck. Then the documented safe way: one SIGUSR1 to the launcher; last Ctrl-Z and
# bg of the launcher (SIGTSTP, SIGCONT: a stop under Open MPI, nothing under MPICH) and,
# under Open MPI, SIGKILL to the launcher (its death is a stop request). The ranks
# may outlive the launcher by that second: the chain is over when nobody holds its
# chain.lock.
# Usage: stop_through_launcher.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
source "$(dirname "$0")/chain_script_common.sh"
model=("${small_chain[@]}" --burnin 10 --samples 10000000 --quiet --checkpoint-every 10000000)
failed=0

# Until the chain has printed its header (it is past MPI_Init and its signal handlers), at most 20 s.
# Until no process holds the chain's lock, at most 20 s.
wait_released() { for _ in $(seq 200); do flock -n "$1/chain.lock" true 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# start_chain NAME: a chain with its checkpoint in $work/NAME (sets dir, out, launcher),
# started and running for 0.3 s.
start_chain() {
  dir=$work/$1 out=$work/$1.out
  "${launch[@]}" 2 "$bpmf" "${model[@]}" --checkpoint-dir "$dir" > "$out" 2>&1 &
  launcher=$!
  wait_started "$out" || { echo "the chain did not start"; cat "$out"; kill "$launcher"; exit 1; }
  sleep 0.3
}
check() {  # check DIR OUT WHAT
  wait_released "$1" || { echo "$3: the ranks still hold $1/chain.lock after 20 s"; failed=1; return; }
  if [ -s "$1/chain.ckpt" ] && ! ls "$1"/chain.ckpt.tmp.* > /dev/null 2>&1; then
    echo "$3: checkpoint written"
  else
    echo "$3: NO CHECKPOINT (files: $(ls "$1" | tr '\n' ' '))"
    cat "$2"
    failed=1
  fi
}

for round in 1 2 3; do
  start=$(date +%s%N)
  start_chain two-$round
  kill -TERM "$launcher"
  sleep 0.05
  kill -TERM "$launcher" 2> /dev/null
  wait "$launcher"
  check "$dir" "$out" "two SIGTERMs 50 ms apart, round $round ($(( ($(date +%s%N) - start) / 1000000 )) ms)"

  dir=$work/timeout-$round out=$work/timeout-$round.out
  start=$(date +%s%N)
  timeout 3 "${launch[@]}" 2 "$bpmf" "${model[@]}" --checkpoint-dir "$dir" > "$out" 2>&1
  grep -q "train 200 x 150" "$out" || { echo "the chain did not start within 3 s"; cat "$out"; exit 1; }
  check "$dir" "$out" "timeout 3, round $round ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
done
# The documented safe way: one SIGUSR1 to the launcher (both forward it, neither escalates).
start_chain usr1
kill -USR1 "$launcher"
wait "$launcher"
check "$dir" "$out" "one SIGUSR1 to the launcher"
grep -q "stopped by SIGUSR1 after iteration" "$out" || { echo "no 'stopped by SIGUSR1' line"; cat "$out"; failed=1; }
# Ctrl-Z and then bg of the launcher (SIGTSTP, SIGCONT to it). Open MPI's mpirun turns
# the SIGTSTP into SIGSTOP of the ranks and forwards the SIGCONT, which the ranks take
# as its stop request (bpmf/README.md, 'Stopping a chain': documented): they stop with
# a checkpoint. MPICH's mpiexec forwards neither: the chain runs on until a SIGUSR1.
start_chain tstp
kill -TSTP "$launcher"
sleep 1
kill -CONT "$launcher"
if "${launch[0]}" --version 2>&1 | grep -q OpenRTE; then
  for _ in $(seq 200); do kill -0 "$launcher" 2> /dev/null || break; sleep 0.1; done
  if kill -0 "$launcher" 2> /dev/null; then
    echo "Open MPI: the chain still runs 20 s after SIGTSTP and SIGCONT to the launcher"
    failed=1
    kill -USR1 "$launcher"
  fi
  wait "$launcher"
  check "$dir" "$out" "Ctrl-Z and bg of Open MPI's launcher"
  grep -q "stopped by SIGCONT from mpirun after iteration" "$out" || { echo "no 'stopped by SIGCONT' line"; cat "$out"; failed=1; }
else
  sleep 2
  kill -0 "$launcher" 2> /dev/null || { echo "the chain ended after SIGTSTP and SIGCONT to the launcher"; cat "$out"; failed=1; }
  kill -USR1 "$launcher"
  wait "$launcher"
  check "$dir" "$out" "Ctrl-Z and bg of the launcher, then one SIGUSR1"
fi
# The launcher killed with SIGKILL (no signal reaches the ranks): under Open MPI the
# ranks take their parent's death as the stop request (PR_SET_PDEATHSIG) and leave a
# checkpoint; without that they exit about 1 s later with none. MPICH: not checked.
if "${launch[0]}" --version 2>&1 | grep -q OpenRTE; then
  start_chain kill9
  kill -KILL "$launcher"
  wait "$launcher"
  check "$dir" "$out" "SIGKILL to Open MPI's launcher"
fi
exit $failed
