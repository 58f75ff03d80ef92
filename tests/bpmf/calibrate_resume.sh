#!/usr/bin/env bash
# --calibrate in the driver (issue 53): a calibrated chain stopped hard and resumed on
# another rank count and policy (checkpoint HYBPMFC5, which holds the fraction) ends
# with the uninterrupted chain's digests, held-out count, multipliers and calibrated
# coverage; a resume with another fraction, or none, is refused on every rank (exit 2);
# the summary CSV row and the samples' model.txt carry the fraction and the
# multipliers; predict from the saved samples gives the run's test digests. Mutations caught: the fraction left out of the checkpoint's identity
# (a HYBPMFC4 file; with only its comparison dropped, the resume with 0.2 fails later,
# on the state's size, with another message), model.txt without the multipliers.
# Usage: calibrate_resume.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
set -u
bpmf=$1 work=$2
shift 2
launch=("$@")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }
model=(--synthetic --synth-rows 200 --synth-cols 150 --synth-density 0.2 -K 4 --seed 5 --burnin 5 --samples 10
       --noise adaptive --quiet)
results() { grep -o -e "predictions digest [0-9a-f]*, predictive std digest [0-9a-f]*" \
                    -e "calibrated intervals.*" -e "calibration: [0-9]* of the training ratings held out" "$1"; }

# The uninterrupted chain on 2 ranks (pure), samples saved, a CSV row.
"${launch[@]}" 2 "$bpmf" "${model[@]}" --calibrate 0.1 --policy pure --save-samples-every 1 \
  --samples-dir "$work/samples" --save-predictions --output-dir "$work/whole" --csv run.csv > "$work/whole.out" 2>&1 ||
  { cat "$work/whole.out"; fail "whole chain"; }
want=$(results "$work/whole.out")
[ "$(echo "$want" | wc -l)" -eq 3 ] || { cat "$work/whole.out"; fail "no digests, holdout or calibrated line"; }
echo "$want"

# The CSV row: the new columns, with the summary's numbers.
python3 - "$work/whole/run.csv" "$work/whole.out" <<'PY' || fail "CSV row"
import csv, re, sys
row = list(csv.DictReader(open(sys.argv[1])))[-1]
out = open(sys.argv[2]).read()
n = re.search(r"split conformal, (\d+) held-out training ratings\): multipliers ([0-9.]+) at 68%, ([0-9.]+) at 95% .* cover ([0-9.]+) of the test set at 68%, ([0-9.]+) at 95%", out)
assert n, "no calibrated line"
assert float(row["calibrate_fraction"]) == 0.1, row["calibrate_fraction"]
assert row["calibration_ratings"] == n.group(1), (row["calibration_ratings"], n.group(1))
for col, g in (("multiplier_68", 2), ("multiplier_95", 3), ("calibrated_coverage_68", 4), ("calibrated_coverage_95", 5)):
    assert abs(float(row[col]) - float(n.group(g))) <= 5e-5, (col, row[col], n.group(g))
PY
# model.txt: the fraction, and the multipliers once the chain has ended.
m68=$(sed -n 's/^multiplier_68 = //p' "$work/samples/model.txt")
awk -F' = ' '$1 == "calibrate" { found = ($2 == 0.1) } END { exit !found }' "$work/samples/model.txt" && [ -n "$m68" ] &&
  grep -q "multipliers $(printf %.4f "$m68") at 68%" "$work/whole.out" ||
  { cat "$work/samples/model.txt"; fail "model.txt lacks the fraction or the summary's multipliers"; }

# predict from the saved samples on 3 ranks: the run's test digests (model.txt's mean is
# that of the ratings the chain trained on).
"${launch[@]}" 3 "$bpmf" predict --model "$work/samples" --pairs "$work/whole/predictions.mm" \
  --mean-output "$work/mean.mm" --std-output "$work/std.mm" > "$work/predict.out" 2>&1 ||
  { cat "$work/predict.out"; fail "predict"; }
[ "$(results "$work/predict.out")" = "$(echo "$want" | grep digest)" ] ||
  { cat "$work/predict.out"; fail "predict: '$(results "$work/predict.out")', the run: '$want'"; }

# Stopped hard after iteration 8 (checkpoint at 6), resumed on 3 ranks, hybrid: the same results.
"${launch[@]}" 2 "$bpmf" "${model[@]}" --calibrate 0.1 --policy pure --checkpoint-every 3 \
  --checkpoint-dir "$work/ckpt" --stop-after 8 > "$work/stopped.out" 2>&1
[ "$(head -c 8 "$work/ckpt/chain.ckpt")" = HYBPMFC5 ] || fail "no HYBPMFC5 checkpoint"
"${launch[@]}" 3 "$bpmf" "${model[@]}" --calibrate 0.1 --policy hybrid --checkpoint-every 3 --resume "$work/ckpt" \
  > "$work/resumed.out" 2>&1 || { cat "$work/resumed.out"; fail "resume"; }
grep -q "at iteration 6 of 15" "$work/resumed.out" || { cat "$work/resumed.out"; fail "not resumed at iteration 6"; }
[ "$(results "$work/resumed.out")" = "$want" ] ||
  { cat "$work/resumed.out"; fail "resumed on 3 ranks: '$(results "$work/resumed.out")', uninterrupted: '$want'"; }
echo "resumed on 3 ranks (hybrid): the uninterrupted results"

# Another holdout is another chain: refused on every rank, the checkpoint untouched.
before=$(cksum < "$work/ckpt/chain.ckpt")
for other in "--calibrate 0.2" ""; do
  # shellcheck disable=SC2086
  "${launch[@]}" 2 "$bpmf" "${model[@]}" $other --checkpoint-every 3 --resume "$work/ckpt" > "$work/other.out" 2>&1
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(grep -c "hympi-bpmf: error" "$work/other.out")" -eq 1 ] &&
    grep -q "other calibration holdout: checkpoint --calibrate 0.100000, this run --calibrate" "$work/other.out" ||
    { cat "$work/other.out"; fail "resume with '$other': exit $rc"; }
done
[ "$(cksum < "$work/ckpt/chain.ckpt")" = "$before" ] || fail "a refused resume changed the checkpoint"
echo "calibrate resume: all cases as expected"
