// Synthetic low-rank rating data: R = U V^T + offset + noise, U and V Gaussian with
// variance 1/sqrt(rank) per entry (so the signal u.v has unit variance), each cell
// observed with probability `density`, a `test_fraction` of the observed cells
// held out. Deterministic in `seed`.
#pragma once
#include <cstdint>
#include <functional>

#include "bpmf/ratings.hpp"

namespace bpmf {

struct SyntheticSpec {
  std::int64_t rows = 2000;
  std::int64_t cols = 500;
  int rank = 4;
  double density = 0.05;
  double noise = 0.5;  // standard deviation of the Gaussian noise
  double test_fraction = 0.2;
  double offset = 0.0;  // added to every value (real data are not centred)
  std::uint64_t seed = 1;
};

struct SyntheticData {
  Ratings train, test;
};

// Throws hympi::Error(invalid_argument) for sizes < 1, rank < 1, density or test_fraction
// outside (0, 1] / [0, 1), or noise < 0.
SyntheticData generate_synthetic(const SyntheticSpec& spec);

// The same cells in the same order, one at a time (test: held out), without holding
// the matrix: a pass costs time, not memory, so callers replay it instead of storing.
// Throws like generate_synthetic, before the first visit.
void for_each_synthetic(const SyntheticSpec& spec, const std::function<void(const Entry&, bool test)>& visit);

}  // namespace bpmf
