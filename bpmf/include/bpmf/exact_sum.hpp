// Sums that do not depend on the order of addition: each term is rounded once to a
// 128-bit fixed-point number (56 fraction bits), integer addition is associative,
// so the global sum over ranks is bitwise the same for any partition. This is what
// lets the hyperparameters and the RMSE be identical for 1, 2, ... ranks.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace bpmf {

__extension__ typedef __int128 int128;

class ExactSums {
 public:
  explicit ExactSums(std::size_t count = 0) : acc_(count, 0) {}
  std::size_t size() const { return acc_.size(); }
  void clear();
  // Throws hympi::Error(internal) for a non-finite term or |term| >= 2^39.
  void add(std::size_t index, double term);
  double value(std::size_t index) const;
  // In place, collective over `comm`: every rank ends with the same global sums.
  void allreduce(MPI_Comm comm);

 private:
  std::vector<int128> acc_;
};

}  // namespace bpmf
