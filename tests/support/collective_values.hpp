// Internal to the tests: the data the collective tests send and the dawdling that
// catches a rank overwriting a node copy early. Header-only: tests/support is on
// every test folder's include path.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace hympi::test {

// Deterministic value of element i of rank r's contribution at iteration it.
inline double value(int rank, std::int64_t i, int it) {
  return rank * 1e6 + static_cast<double>(i) * 0.5 + it * 1e-3;
}

// Irregular allgatherv counts for p ranks: some ranks contribute nothing, the others
// different amounts.
inline std::vector<std::int64_t> irregular_counts(int p) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) counts[static_cast<std::size_t>(r)] = (r * 37) % 5 == 1 ? 0 : 3 + 11 * r;
  return counts;
}

// Some ranks dawdle (0 to 3 steps of step_us microseconds) while reading: a fast
// neighbour that overwrote the node copy early would be caught.
inline void jitter(int rank, int it, int step_us) {
  if ((rank + it) % 3 == 0) usleep(static_cast<useconds_t>(step_us * ((rank * 7 + it) % 4)));
}

}  // namespace hympi::test
