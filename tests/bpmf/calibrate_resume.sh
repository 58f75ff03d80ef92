#!/usr/bin/env bash
# --calibrate in the driver (issue 53): a calibrated chain stopped hard and resumed on
# another rank count and policy (checkpoint HYBPMFC5, which holds the fraction) ends
# with the uninterrupted chain's digests, held-out count, multipliers and calibrated
# coverage; a resume with another fraction, or none, is refused on every rank (exit 2);
# the summary CSV row and the samples' model.txt carry the fraction and the
# multipliers; predict from the saved samples gives the run's test digests and the
# recorded intervals (warned when the std or the sample count differs); the latent
# std's summary; --samples 0 (n/a); --calibrate '' refused. Mutations caught: the fraction left out of the checkpoint's identity
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
n = re.search(r"split conformal, (\d+) held-out training ratings, std noise\): multipliers ([0-9.]+) at 68%, ([0-9.]+) at 95% .* cover ([0-9.]+) of the test set at 68%, ([0-9.]+) at 95%", out)
assert n, "no calibrated line"
assert row["calibrate_fraction"] == "0.10000000000000001", row["calibrate_fraction"]  # 17 digits, as model.txt
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
[ "$(results "$work/predict.out" | grep digest)" = "$(echo "$want" | grep digest)" ] ||
  { cat "$work/predict.out"; fail "predict: '$(results "$work/predict.out")', the run: '$want'"; }
# ... and model.txt's multipliers with the std they multiply (noise) and its 10 samples,
# no warning; with --predictive-std latent, or from every 2nd sample, a warning each.
grep -q "^calibrated_std = noise$" "$work/samples/model.txt" &&
  grep -q "^calibration_samples = 10$" "$work/samples/model.txt" ||
  { cat "$work/samples/model.txt"; fail "model.txt does not say which std the multipliers were calibrated on"; }
grep -q "predict: calibrated intervals (model.txt: split conformal, [0-9]* held-out training ratings, std noise, 10 samples): mean +- $(printf %.4f "$m68") std at 68%" "$work/predict.out" &&
  ! grep -q "warning" "$work/predict.out" || { cat "$work/predict.out"; fail "predict: the calibrated intervals"; }
"${launch[@]}" 1 "$bpmf" predict --model "$work/samples" --pairs "$work/whole/predictions.mm" --predictive-std latent \
  --mean-output "$work/mean.mm" --std-output "$work/std.mm" > "$work/predict_latent.out" 2>&1 ||
  { cat "$work/predict_latent.out"; fail "predict latent"; }
grep -q "predict: warning: the multipliers were calibrated on the noise std, these stds are --predictive-std latent" \
  "$work/predict_latent.out" || { cat "$work/predict_latent.out"; fail "predict latent: no warning"; }
mkdir -p "$work/thinned" && cp "$work/samples/model.txt" "$work/thinned/" &&
  for f in "$work"/samples/sample-0000{02,04,06,08,10}-*; do cp "$f" "$work/thinned/"; done
"${launch[@]}" 1 "$bpmf" predict --model "$work/thinned" --pairs "$work/whole/predictions.mm" \
  --mean-output "$work/mean.mm" --std-output "$work/std.mm" > "$work/predict_thinned.out" 2>&1 ||
  { cat "$work/predict_thinned.out"; fail "predict thinned"; }
grep -q "predict: warning: the multipliers were calibrated on stds from 10 samples, these come from the 5 saved" \
  "$work/predict_thinned.out" || { cat "$work/predict_thinned.out"; fail "predict thinned: no warning"; }
echo "predict: the recorded multipliers; a warning for the latent std and for thinned samples"

# The latent std: the multipliers said to be of it, not set beside the Gaussian z; the
# recorded std latent. No sample (--samples 0): the calibration n/a, NaN in the CSV.
"${launch[@]}" 2 "$bpmf" "${model[@]}" --calibrate 0.1 --predictive-std latent --save-samples-every 1 \
  --samples-dir "$work/samples_latent" > "$work/latent.out" 2>&1 || { cat "$work/latent.out"; fail "latent"; }
grep -q "std latent): multipliers [0-9.]* at 68%, [0-9.]* at 95% of the latent std" "$work/latent.out" &&
  ! grep -q "Gaussian" "$work/latent.out" && grep -q "^calibrated_std = latent$" "$work/samples_latent/model.txt" ||
  { cat "$work/latent.out" "$work/samples_latent/model.txt"; fail "latent: the summary or model.txt"; }
"${launch[@]}" 2 "$bpmf" "${model[@]:0:13}" --samples 0 --noise adaptive --quiet --calibrate 0.1 --output-dir "$work/nosamples" \
  --csv run.csv > "$work/nosamples.out" 2>&1 || { cat "$work/nosamples.out"; fail "--samples 0"; }
grep -q "summary: calibrated intervals: n/a ([0-9]* training ratings held out, but no post-burn-in sample" \
  "$work/nosamples.out" && ! grep -q "inf" "$work/nosamples.out" ||
  { cat "$work/nosamples.out"; fail "--samples 0: not n/a"; }
python3 - "$work/nosamples/run.csv" <<'PY' || fail "--samples 0: CSV"
import csv, math, sys
row = list(csv.DictReader(open(sys.argv[1])))[-1]
for col in ("multiplier_68", "multiplier_95", "calibrated_coverage_68", "calibrated_coverage_95"):
    assert math.isnan(float(row[col])), (col, row[col])
PY
echo "latent std and --samples 0: as expected"

# An empty fraction is refused (exit 2, once), not taken as off.
"${launch[@]}" 2 "$bpmf" "${model[@]}" --calibrate "" > "$work/empty.out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ "$(grep -c "hympi-bpmf: error: --calibrate '' is not a number" "$work/empty.out")" -eq 1 ] ||
  { cat "$work/empty.out"; fail "--calibrate '': exit $rc"; }

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
