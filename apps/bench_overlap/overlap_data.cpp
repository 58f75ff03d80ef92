#include "overlap_data.hpp"

namespace hympi::overlap {

namespace {
// Small integers: every sum of them is exact in any order, so results compare with ==.
double value(int rank, std::int64_t element, int iteration) {
  return static_cast<double>(rank + element % 5 + iteration % 1024);
}
}  // namespace

OverlapData::OverlapData(bool reduce, std::int64_t size, int rank, int ranks)
    : reduce_(reduce), size_(size), rank_(rank), ranks_(ranks) {}

void OverlapData::write(double* slot, int iteration) const {
  for (std::int64_t j = 0; j < size_; ++j) slot[j] = value(rank_, j, iteration);
}

std::int64_t OverlapData::wrong(const double* result, int iteration) const {
  std::int64_t wrong = 0;
  if (reduce_) {
    for (std::int64_t j = 0; j < size_; ++j) {
      double sum = 0;
      for (int r = 0; r < ranks_; ++r) sum += value(r, j, iteration);
      wrong += result[j] != sum;
    }
    return wrong;
  }
  for (int r = 0; r < ranks_; ++r)
    for (std::int64_t j = 0; j < size_; ++j) wrong += result[r * size_ + j] != value(r, j, iteration);
  return wrong;
}

}  // namespace hympi::overlap
