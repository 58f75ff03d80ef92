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
  // The same sums as add() of terms[i] to sum first + i (the same two truncations of
  // each term), for hot loops: when every term lies below 2^30 they collect in two
  // int64 words each, in one loop the compiler vectorizes, instead of 128-bit adds; at
  // most kBatch calls per index, then fold(). Otherwise every term goes through add().
  void add_batched(std::size_t first, const double* terms, std::size_t n) {
    bool small = true;
    for (std::size_t i = 0; i < n; ++i) small &= std::fabs(terms[i]) < 0x1p30;  // false for NaN
    if (!small) {
      for (std::size_t i = 0; i < n; ++i) add(first + i, terms[i]);
      return;
    }
    std::int64_t* high = high_.data() + first;
    std::int64_t* low = low_.data() + first;
    for (std::size_t i = 0; i < n; ++i) {
      const double scaled = terms[i] * 0x1p24;
      const auto whole = static_cast<std::int64_t>(scaled);
      high[i] += whole;  // |whole| < 2^54: kBatch of them fit
      low[i] += static_cast<std::int64_t>((scaled - static_cast<double>(whole)) * 0x1p32);
    }
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
