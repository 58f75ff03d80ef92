#include "bpmf/calibration.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "bpmf/random.hpp"
#include "hympi/error.hpp"

namespace bpmf {

namespace {
// The fraction as the shortest text that reads back to it (1e-09, 0.05): std::to_string
// would print 1e-9 as 0.000000.
std::string shortest(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}
}  // namespace

bool held_out_for_calibration(std::int32_t row, std::int32_t col, std::uint64_t seed, double fraction) {
  if (!(fraction > 0.0)) return false;
  Stream hash(seed, kCalibrationIteration, static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(col));
  return hash.uniform() < fraction;
}

void check_calibration_fraction(double fraction) {
  if (!(fraction >= 0.0 && fraction < 0.5))
    throw hympi::Error(hympi::ErrorCode::invalid_argument,
                       "--calibrate " + shortest(fraction) +
                           ": the fraction of training ratings held out must be >= 0 and < 0.5 (0: off; 0.05 "
                           "suggested)");
}

CalibrationSplit split_for_calibration(const TrainingInput& train, std::uint64_t seed, double fraction) {
  check_calibration_fraction(fraction);
  CalibrationSplit split{train, {}};
  if (fraction == 0.0) return split;
  split.held_out.rows = train.rows;
  split.held_out.cols = train.cols;
  // The kept ratings' count and sum in source order: mean_value's arithmetic, the
  // same bits on every rank.
  std::int64_t kept = 0;
  double sum = 0.0;
  train.source([&](const Entry& e) {
    if (held_out_for_calibration(e.row, e.col, seed, fraction)) {
      split.held_out.entries.push_back(e);
    } else {
      ++kept;
      sum += e.value;
    }
  });
  const auto n = static_cast<std::int64_t>(split.held_out.entries.size());
  if (n < kMinCalibrationRatings || kept == 0)
    throw hympi::Error(hympi::ErrorCode::invalid_argument,
                       "--calibrate " + shortest(fraction) + " holds out " + std::to_string(n) + " of " +
                           std::to_string(train.nnz) + " training ratings and keeps " + std::to_string(kept) +
                           ": the 95% multiplier needs at least " + std::to_string(kMinCalibrationRatings) +
                           " held out and the chain at least one to train on");
  split.train.nnz = kept;
  split.train.mean = sum / static_cast<double>(kept);
  const TrainingSource source = train.source;
  split.train.source = [source, seed, fraction](const std::function<void(const Entry&)>& emit) {
    source([&](const Entry& e) {
      if (!held_out_for_calibration(e.row, e.col, seed, fraction)) emit(e);
    });
  };
  return split;
}

std::size_t conformal_rank(std::size_t n, int percent) {
  return ((n + 1) * static_cast<std::size_t>(percent) + 99) / 100;
}

double conformal_multiplier(std::vector<double> scores, int percent) {
  const std::size_t n = scores.size(), rank = conformal_rank(n, percent);
  if (rank > n || rank == 0) return std::numeric_limits<double>::infinity();
  std::nth_element(scores.begin(), scores.begin() + static_cast<std::ptrdiff_t>(rank - 1), scores.end());
  return scores[rank - 1];
}

Calibration calibrate(const Ratings& held_out, const std::vector<double>& mean, const std::vector<double>& std) {
  std::vector<double> scores(held_out.entries.size());
  for (std::size_t k = 0; k < scores.size(); ++k) {
    const double z = std::fabs(held_out.entries[k].value - mean[k]) / std[k];
    scores[k] = std::isnan(z) ? std::numeric_limits<double>::infinity() : z;  // no std: never inside
  }
  return {scores.size(), conformal_multiplier(scores, 68), conformal_multiplier(scores, 95)};
}

}  // namespace bpmf
