#!/usr/bin/env bash
# A chain owns its directories (issue 42): a second chain started on the checkpoint
# directory of a running one is refused; a lock left by a chain killed with SIGKILL
# does not block the next one; a chain.lock removed while its chain runs is locked
# again before the chain's next write; --resume into a --checkpoint-dir or --samples-dir of
# another chain - the same data, model and seed, only another chain id - is refused
# and leaves that chain's files as they were; resuming one's own chain still works,
# also from a checkpoint written before chain ids.
# Refusals: exit 2 on every rank (the launcher's exit), the message printed once.
# Usage: chain_directories.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
source "$(dirname "$0")/chain_script_common.sh"
model=("${small_chain[@]}" --burnin 4 --quiet)
first=
fail() { echo "FAILED: $*"; [ -n "$first" ] && kill "$first" 2> /dev/null; exit 1; }
# refused WHAT REGEX ARGS...: the run exits 2 with REGEX in the one error line.
refused() {
  local what=$1 regex=$2
  shift 2
  "${launch[@]}" 2 "$bpmf" "${model[@]}" "$@" > "$work/refused.out" 2>&1
  local rc=$?
  local errors
  errors=$(grep -c "hympi-bpmf: error" "$work/refused.out")
  if [ "$rc" -ne 2 ] || [ "$errors" -ne 1 ] || ! grep -Eq "hympi-bpmf: error: .*$regex" "$work/refused.out"; then
    cat "$work/refused.out"
    fail "$what: expected exit 2 and one error matching '$regex', got exit $rc and $errors error line(s)"
  fi
  echo "refused ($what): $(grep "hympi-bpmf: error" "$work/refused.out")"
}
ran() {  # ran WHAT ARGS...: the run exits 0
  local what=$1
  shift
  "${launch[@]}" 2 "$bpmf" "${model[@]}" "$@" > "$work/ran.out" 2>&1
  local rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/ran.out"; fail "$what: exit $rc"; }
  echo "ran ($what)"
}
digest_dir() { (cd "$1" && sha256sum $(ls | grep -v chain.lock) | sha256sum); }

# 1. Two new chains on one --checkpoint-dir, the second while the first runs (before
#    its first checkpoint).
dir=$work/shared
"${launch[@]}" 2 "$bpmf" "${model[@]}" --samples 10000000 --checkpoint-every 10000000 --checkpoint-dir "$dir" \
  > "$work/first.out" 2>&1 &
first=$!
wait_started "$work/first.out" || { kill "$first"; cat "$work/first.out"; fail "the first chain did not start"; }
refused "second chain on a running chain's --checkpoint-dir" "'$dir' is in use by another running chain" \
  --samples 5 --checkpoint-every 1 --checkpoint-dir "$dir"
# 2. kill -9 of its ranks: the kernel drops the lock; the directory holds no
#    checkpoint, so a new chain may take it.
ranks=$(ranks_of "$first")
[ -n "$ranks" ] || fail "no ranks found under the launcher"
kill -KILL $ranks
wait "$first"
first=
[ ! -e "$dir/chain.ckpt" ] || fail "the killed chain left a checkpoint (it should have had none yet)"
ran "new chain on the directory of a chain killed with SIGKILL" --samples 5 --checkpoint-every 1 --checkpoint-dir "$dir"

# 2b. chain.lock removed while a chain runs (it locks the file at that path again
#     before its next write) and a resume of that chain into the same directory
#     started after: refused, not a second writer of one checkpoint.
dir=$work/removed
"${launch[@]}" 2 "$bpmf" "${model[@]}" --samples 10000000 --checkpoint-every 20 --checkpoint-dir "$dir" \
  > "$work/removed.out" 2>&1 &
first=$!
wait_started "$work/removed.out" || { cat "$work/removed.out"; fail "the chain did not start"; }
for _ in $(seq 200); do [ -e "$dir/chain.ckpt" ] && break; sleep 0.1; done
rm -f "$dir/chain.lock"
for _ in $(seq 200); do [ -e "$dir/chain.lock" ] && break; sleep 0.1; done
refused "resume into a running chain's directory after its chain.lock was removed" \
  "'$dir' is in use by another running chain" --samples 5 --checkpoint-every 1 --resume "$dir"
grep -q "warning: $dir/chain.lock was removed while chain [0-9a-f]\{32\} ran: locked again" "$work/removed.out" ||
  { cat "$work/removed.out"; fail "no warning about the removed chain.lock"; }
kill -USR1 "$first"
wait "$first"
first=

# 3. Chains X and Y: the same data, model and seed; Y stopped hard after iteration 3.
ran "chain X" --samples 6 --checkpoint-every 2 --checkpoint-dir "$work/x/ckpt" --save-samples-every 1 \
  --samples-dir "$work/x/samples"
"${launch[@]}" 2 "$bpmf" "${model[@]}" --samples 6 --checkpoint-every 2 --checkpoint-dir "$work/y/ckpt" \
  --save-samples-every 1 --samples-dir "$work/y/samples" --stop-after 7 > "$work/y.out" 2>&1
[ -e "$work/y/ckpt/chain.ckpt" ] || { cat "$work/y.out"; fail "chain Y left no checkpoint"; }
x_ckpt=$(digest_dir "$work/x/ckpt") x_samples=$(digest_dir "$work/x/samples")
refused "resume Y into X's --checkpoint-dir" "belongs to another chain: other chain id" \
  --samples 6 --checkpoint-every 2 --resume "$work/y/ckpt" --checkpoint-dir "$work/x/ckpt"
refused "resume Y into X's --samples-dir" "'$work/x/samples' holds the samples of another run \\(chain [0-9a-f]{32}" \
  --samples 6 --checkpoint-every 2 --resume "$work/y/ckpt" --save-samples-every 1 --samples-dir "$work/x/samples"
refused "new chain into X's --samples-dir" "holds the samples of another run" \
  --samples 6 --save-samples-every 1 --samples-dir "$work/x/samples"
[ "$(digest_dir "$work/x/ckpt")" = "$x_ckpt" ] || fail "a refused run changed X's checkpoint"
[ "$(digest_dir "$work/x/samples")" = "$x_samples" ] || fail "a refused run changed X's samples"

# 4. Y resumed into its own directories: runs to the end, its samples under its chain id;
#    the temporary of a checkpoint write cut by a kill (<file>.tmp.<pid>) is removed,
#    a file only named alike is kept.
head -c 1000 /dev/zero > "$work/y/ckpt/chain.ckpt.tmp.4242424"
echo mine > "$work/y/ckpt/chain.ckpt.tmp.notes"
ran "resume Y into its own directories" --samples 6 --checkpoint-every 2 --resume "$work/y/ckpt" \
  --save-samples-every 1 --samples-dir "$work/y/samples"
chain=$(grep -o "resumed chain [0-9a-f]\{32\}" "$work/ran.out" | cut -d' ' -f3)
[ -n "$chain" ] && grep -qx "chain = $chain" "$work/y/samples/model.txt" || fail "Y's model.txt does not name chain '$chain'"
[ "$(ls "$work"/y/samples/sample-*-V.npy | wc -l)" -eq 6 ] || fail "Y's samples directory does not hold 6 samples"
[ ! -e "$work/y/ckpt/chain.ckpt.tmp.4242424" ] && [ -e "$work/y/ckpt/chain.ckpt.tmp.notes" ] ||
  fail "the leftover temporary checkpoint was not removed, or a file only named alike was"
grep -q "removed 1 temporary checkpoint file(s)" "$work/ran.out" || { cat "$work/ran.out"; fail "no line about the removed temporary"; }
# 5. A chain checkpointed before chain ids (format HYBPMFC1, written by the code of
#    2026-11-26 after iteration 2 of 6): resumed, it gets an id, keeps it, and ends with
#    fixed digests: that chain's state continued by today's arithmetic, whose bits are
#    the same on every CPU target and host (bpmf.cpu_target_bits; until 2026-11-29 the
#    continuation used the C library's log/sin/cos and the CPU's vector width, and these
#    digests were that code's uninterrupted chain's on one kind of CPU only).
data=$(cd "$(dirname "$0")/data" && pwd)
cp -r "$data/chain-v1" "$work/v1"
v1=(--train "$data/good_train.mm" --test "$data/good_test.mm" -K 2 --burnin 2 --samples 4 --seed 3 --quiet
    --checkpoint-every 1 --resume "$work/v1")
"${launch[@]}" 2 "$bpmf" "${v1[@]}" > "$work/v1.out" 2>&1 || { cat "$work/v1.out"; fail "resuming a HYBPMFC1 checkpoint"; }
grep -q "resumed chain [0-9a-f]\{32\} from .* at iteration 2 of 6" "$work/v1.out" || { cat "$work/v1.out"; fail "no resume line"; }
# A HYMPI_BPMF_BITS=target build has the bits of its CPU target: no fixed digest to compare.
if grep -q "(bits: portable)" "$work/v1.out"; then
  grep -q "predictions digest 5c4f9e05912e02ee, predictive std digest 4d2ec90ae71d3e50" "$work/v1.out" ||
    { cat "$work/v1.out"; fail "the resumed HYBPMFC1 chain does not end with its digests"; }
else
  grep -q "(bits: target)" "$work/v1.out" || { cat "$work/v1.out"; fail "the summary names no bits"; }
  echo "HYMPI_BPMF_BITS=target: the resumed HYBPMFC1 chain's digests are this CPU target's (not compared)"
fi
[ "$(head -c 8 "$work/v1/chain.ckpt")" = HYBPMFC4 ] || fail "the resumed chain did not write the new format"
echo "resumed a HYBPMFC1 checkpoint: $(grep -o "resumed chain [0-9a-f]*" "$work/v1.out")"
echo "chain directories: all cases as expected"
