// Sums that do not depend on the order of addition: each term is rounded once to a
// 128-bit fixed-point number (56 fraction bits), integer addition is associative,
// so the global sum over ranks is bitwise the same for any partition. This is what
// lets the hyperparameters and the RMSE be identical for 1, 2, ... ranks.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/reduce.hpp"

namespace hympi {
class Topology;
}

namespace bpmf {

__extension__ typedef __int128 int128;

class ExactSums {
 public:
  // Each sum travels as kLimbs int64 words of 32 bits (the top one signed), which
  // MPI_SUM adds without overflow for up to 2^31 contributions in any order and
  // any split of the vector - a 16-byte element made of two MPI words would not
  // survive an MPI or hympi reduction that cuts the vector between them.
  static constexpr int kLimbs = 4;

  // add_batched() may run this many times per index between two fold()s.
  static constexpr int kBatch = 256;

  explicit ExactSums(std::size_t count = 0) : acc_(count, 0), high_(count, 0), low_(count, 0) {}
  std::size_t size() const { return acc_.size(); }
  void clear();
  // Throws hympi::Error(internal) for a non-finite term or |term| >= 2^39.
  void add(std::size_t index, double term);
  // The same sum as add() (the same two truncations of the term), for hot loops:
  // terms below 2^30 collect in two int64 words instead of a 128-bit add; at most
  // kBatch calls per index, then fold(). Larger or bad terms go through add().
  void add_batched(std::size_t index, double term) {
    if (!(std::fabs(term) < 0x1p30)) return add(index, term);  // NaN too
    const double scaled = term * 0x1p24;
    const auto high = static_cast<std::int64_t>(scaled);
    high_[index] += high;  // |high| < 2^54: kBatch of them fit
    low_[index] += static_cast<std::int64_t>((scaled - static_cast<double>(high)) * 0x1p32);
  }
  // Moves the batched parts into the sums; value() and to_limbs() see only folded terms.
  void fold();
  double value(std::size_t index) const;

  // size() * kLimbs words; from_limbs() takes their sums over any number of copies.
  void to_limbs(std::int64_t* limbs) const;
  void from_limbs(const std::int64_t* limbs);

 private:
  std::vector<int128> acc_;
  std::vector<std::int64_t> high_, low_;  // add_batched()'s parts: units of 2^-24 and 2^-56
};

// Persistent global exact sums over topo.comm() through the core's allreduce
// (MPI_INT64_T limbs, MPI_SUM) of the policy in `options`: the same bits on every
// rank for any rank count, layout and policy.
class ExactSumReduction {
 public:
  // Collective over topo.comm().
  ExactSumReduction(const hympi::Topology& topo, std::size_t count, hympi::CollectiveOptions options);
  // Collective: `sums` (size() == count) becomes the global sums on every rank.
  void run(ExactSums& sums);

 private:
  std::unique_ptr<hympi::Allreduce> reduce_;
};

}  // namespace bpmf
