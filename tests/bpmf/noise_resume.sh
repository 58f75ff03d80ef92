#!/usr/bin/env bash
# Adaptive noise in the driver (issue 53): a chain stopped hard and resumed on another
# rank count and policy from its checkpoint (format HYBPMFC4, with the noise state)
# ends with the digests and the precision of the uninterrupted chain; predict from its
# saved samples (each with its -alpha.npy) gives the same digests on 1 and 3 ranks; a
# sample without its precision is refused, and so is a resume with another noise.
# Mutations caught: the checkpoint without the drawn precision (the resumed chain
# restarts at SN_INIT: other digests), predict with model.txt's alpha instead of the
# samples' (other std digest).
# Usage: noise_resume.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
set -u
bpmf=$1 work=$2
shift 2
launch=("$@")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }
model=(--synthetic --synth-rows 200 --synth-cols 150 --synth-density 0.2 -K 4 --seed 5 --burnin 5 --samples 10
       --noise adaptive:0.5,20 --quiet)
digests() { grep -o "predictions digest [0-9a-f]*, predictive std digest [0-9a-f]*" "$1"; }
precision() { grep -o "noise precision [^ ]* (posterior mean" "$1"; }

# The uninterrupted chain on 2 ranks (pure), every sample saved.
"${launch[@]}" 2 "$bpmf" "${model[@]}" --policy pure --save-samples-every 1 --samples-dir "$work/samples" \
  --save-predictions --output-dir "$work/whole" > "$work/whole.out" 2>&1 || { cat "$work/whole.out"; fail "whole chain"; }
want=$(digests "$work/whole.out") want_precision=$(precision "$work/whole.out")
[ -n "$want" ] && [ -n "$want_precision" ] || { cat "$work/whole.out"; fail "no digests or precision in the summary"; }
grep -q "noise adaptive:0.5,20: precision sampled every iteration" "$work/whole.out" || fail "no noise line in the header"
grep -qx "noise = adaptive" "$work/samples/model.txt" && grep -qx "sn_max = 20" "$work/samples/model.txt" ||
  { cat "$work/samples/model.txt"; fail "model.txt does not describe the adaptive noise"; }
[ -e "$work/samples/sample-000010-alpha.npy" ] || fail "sample 10 has no -alpha.npy"

# Stopped hard after iteration 8 (checkpoint at 6, within the samples), resumed on 3 ranks, hybrid.
"${launch[@]}" 2 "$bpmf" "${model[@]}" --policy pure --checkpoint-every 3 --checkpoint-dir "$work/ckpt" \
  --stop-after 8 > "$work/stopped.out" 2>&1
[ "$(head -c 8 "$work/ckpt/chain.ckpt")" = HYBPMFC4 ] || fail "no HYBPMFC4 checkpoint"
"${launch[@]}" 3 "$bpmf" "${model[@]}" --policy hybrid --checkpoint-every 3 --resume "$work/ckpt" \
  > "$work/resumed.out" 2>&1 || { cat "$work/resumed.out"; fail "resume"; }
grep -q "at iteration 6 of 15" "$work/resumed.out" || { cat "$work/resumed.out"; fail "not resumed at iteration 6"; }
[ "$(digests "$work/resumed.out")" = "$want" ] && [ "$(precision "$work/resumed.out")" = "$want_precision" ] ||
  { cat "$work/resumed.out"; fail "resumed: '$(digests "$work/resumed.out")' '$(precision "$work/resumed.out")', uninterrupted: '$want' '$want_precision'"; }
echo "resumed on 3 ranks (hybrid): $want, $want_precision"

# Another noise than the checkpoint's: refused on every rank.
"${launch[@]}" 2 "$bpmf" "${model[@]/adaptive:0.5,20/fixed:2}" --checkpoint-every 3 --resume "$work/ckpt" \
  > "$work/other.out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ "$(grep -c "hympi-bpmf: error" "$work/other.out")" -eq 1 ] &&
  grep -q "other noise: checkpoint noise adaptive:0.5,20, this run noise fixed:2" "$work/other.out" ||
  { cat "$work/other.out"; fail "resume with fixed noise: exit $rc"; }

# predict from the saved samples: the run's digests on 1 and 3 ranks.
for np in 1 3; do
  "${launch[@]}" "$np" "$bpmf" predict --model "$work/samples" --pairs "$work/whole/predictions.mm" \
    --mean-output "$work/mean.mm" --std-output "$work/std.mm" > "$work/predict.out" 2>&1 ||
    { cat "$work/predict.out"; fail "predict on $np ranks"; }
  [ "$(digests "$work/predict.out")" = "$want" ] ||
    { cat "$work/predict.out"; fail "predict on $np ranks: '$(digests "$work/predict.out")', the run: '$want'"; }
done
echo "predict on 1 and 3 ranks: the run's digests"
cp -r "$work/samples" "$work/incomplete" && rm "$work/incomplete/sample-000004-alpha.npy"
"${launch[@]}" 2 "$bpmf" predict --model "$work/incomplete" --pairs "$work/whole/predictions.mm" \
  --mean-output "$work/mean.mm" --std-output "$work/std.mm" > "$work/predict.out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "hympi-bpmf: error: sample 4 .*sample-000004-alpha.npy' is missing" "$work/predict.out" ||
  { cat "$work/predict.out"; fail "predict without a sample's precision: exit $rc"; }
echo "noise resume: all cases as expected"
