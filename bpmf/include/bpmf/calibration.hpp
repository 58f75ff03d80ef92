// Split conformal calibration of the predictive intervals (--calibrate FRACTION).
// A fraction of the TRAINING ratings is held out of the chain: which ones is decided
// by a counter-based hash of (row, column, seed) alone, so the same ratings are held
// out for any rank count, layout and policy. The sampler predicts them every sample
// exactly like the test entries; at the end the multiplier m_p of each interval is
// the ceil((n + 1) p)-th smallest |y - mean| / std over the n held-out ratings, and
// the calibrated interval is mean +- m_p std. On exchangeable data it covers at least
// p of a new rating (split conformal prediction; Vovk et al., Lei et al. 2018),
// whatever the tails of the residuals - the Gaussian mean +- z_p std does not.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bpmf/ratings.hpp"
#include "bpmf/training_matrix.hpp"

namespace bpmf {

// The iteration index of the holdout's hash: no Gibbs iteration (an int) reaches it,
// so these numbers are disjoint from every stream of the sampler and the generator.
constexpr std::uint64_t kCalibrationIteration = ~std::uint64_t{0} - 1;

// Fewer held-out ratings than this are refused: the 95% multiplier needs
// ceil((n + 1) 0.95) <= n, i.e. n >= 19; 20 leaves it one order statistic of margin.
constexpr std::int64_t kMinCalibrationRatings = 20;

// Whether (row, col) is held out at this fraction and seed (0: never).
bool held_out_for_calibration(std::int32_t row, std::int32_t col, std::uint64_t seed, double fraction);

// Throws hympi::Error(invalid_argument) unless 0 <= fraction < 0.5 (NaN refused).
void check_calibration_fraction(double fraction);

// The training ratings split in one pass: what the chain trains on (count and mean
// of the kept ratings, in source order; a source that filters `train`'s, so `train`
// must outlive it) and the held-out ratings in source order. Throws
// hympi::Error(invalid_argument) when fewer than kMinCalibrationRatings are held out
// or none is kept. fraction 0: `train` itself, nothing held out.
struct CalibrationSplit {
  TrainingInput train;
  Ratings held_out;
};
CalibrationSplit split_for_calibration(const TrainingInput& train, std::uint64_t seed, double fraction);

// The conformal multiplier of level p = percent / 100 from the scores |y - mean| / std:
// the ceil((n + 1) p)-th smallest (in integers: (n + 1) * 0.68 in doubles can round
// above a whole number and take the next one); +infinity when that exceeds n. The
// order statistic does not depend on the order of the scores.
std::size_t conformal_rank(std::size_t n, int percent);  // 1-based
double conformal_multiplier(std::vector<double> scores, int percent);

struct Calibration {
  std::size_t ratings = 0;                    // held out (n)
  double multiplier68 = 0, multiplier95 = 0;  // replace kZ68, kZ95
};
// The multipliers from the held-out ratings and their predictive means and stds.
Calibration calibrate(const Ratings& held_out, const std::vector<double>& mean, const std::vector<double>& std);

}  // namespace bpmf
