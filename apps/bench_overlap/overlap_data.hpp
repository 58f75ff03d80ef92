// What each rank contributes to the measured collective and what it must get
// back. The data change every iteration, so a result that is stale (an operation
// that did not complete, or returned a previous start's data) is caught.
#pragma once
#include <cstdint>

namespace hympi::overlap {

class OverlapData {
 public:
  // `size` doubles per rank (allgather) or the vector length (reduce = allreduce,
  // sum) on `ranks` ranks, seen from rank `rank`.
  OverlapData(bool reduce, std::int64_t size, int rank, int ranks);
  // This rank's contribution to iteration `iteration`.
  void write(double* slot, int iteration) const;
  // Elements of `result` that differ from iteration `iteration`'s exact result.
  std::int64_t wrong(const double* result, int iteration) const;

 private:
  bool reduce_;
  std::int64_t size_;
  int rank_, ranks_;
};

}  // namespace hympi::overlap
