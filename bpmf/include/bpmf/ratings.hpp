// A sparse rating matrix in coordinate form: the only data structure that crosses
// the boundary between the input readers, the generator and the sampler.
#pragma once
#include <cstdint>
#include <vector>

namespace bpmf {

struct Entry {
  std::int32_t row = 0;  // 0-based
  std::int32_t col = 0;  // 0-based
  double value = 0.0;
};

struct Ratings {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<Entry> entries;
};

// Mean of the values (0 when empty).
double mean_value(const Ratings& ratings);

}  // namespace bpmf
