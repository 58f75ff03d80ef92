#include "bpmf/exact_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "hympi/error.hpp"

namespace bpmf {

namespace {
constexpr double kScale = 0x1p56;  // fixed point: 56 fraction bits
constexpr double kLimit = 0x1p39;  // whole part of a term fits the high 64-bit word with room to spare
}  // namespace

void ExactSums::clear() {
  std::fill(acc_.begin(), acc_.end(), int128{0});
  std::fill(high_.begin(), high_.end(), 0);
  std::fill(low_.begin(), low_.end(), 0);
}

void ExactSums::fold() {
  for (std::size_t i = 0; i < acc_.size(); ++i) {
    acc_[i] += static_cast<int128>(high_[i]) * (int128{1} << 32) + low_[i];
    high_[i] = low_[i] = 0;
  }
}

void ExactSums::add(std::size_t index, double term) {
  if (!std::isfinite(term) || std::fabs(term) >= kLimit)
    throw hympi::Error(hympi::ErrorCode::internal,
                       "bpmf: a term of an exact sum is not finite or too large (" + std::to_string(term) + ")");
  // Two native double->int64 truncations instead of one slow double->int128 one:
  // high = whole multiples of 2^-24, low = the (exact) remainder in units of 2^-56.
  const double scaled = term * 0x1p24;
  const auto high = static_cast<std::int64_t>(scaled);
  const auto low = static_cast<std::int64_t>((scaled - static_cast<double>(high)) * 0x1p32);
  acc_[index] += static_cast<int128>(high) * (int128{1} << 32) + low;
}

double ExactSums::value(std::size_t index) const {
  return static_cast<double>(acc_[index]) / kScale;
}

void ExactSums::to_limbs(std::int64_t* limbs) const {
  for (std::size_t i = 0; i < acc_.size(); ++i) {
    const auto bits = static_cast<unsigned __int128>(acc_[i]);
    for (int l = 0; l < kLimbs - 1; ++l)
      limbs[kLimbs * i + l] = static_cast<std::int64_t>((bits >> (32 * l)) & 0xffffffffu);
    limbs[kLimbs * i + kLimbs - 1] = static_cast<std::int64_t>(acc_[i] >> (32 * (kLimbs - 1)));  // arithmetic: signed
  }
}

void ExactSums::from_limbs(const std::int64_t* limbs) {
  // Modulo 2^128 the carries come out right, and the true sum fits in 128 bits.
  for (std::size_t i = 0; i < acc_.size(); ++i) {
    unsigned __int128 bits = 0;
    for (int l = 0; l < kLimbs; ++l)
      bits += static_cast<unsigned __int128>(static_cast<int128>(limbs[kLimbs * i + l])) << (32 * l);
    acc_[i] = static_cast<int128>(bits);
  }
}

ExactSumReduction::ExactSumReduction(const hympi::Topology& topo, std::size_t count, hympi::CollectiveOptions options)
    : reduce_(hympi::Allreduce::create(topo, static_cast<std::int64_t>(count) * ExactSums::kLimbs, MPI_INT64_T, MPI_SUM,
                                       options)) {}

void ExactSumReduction::run(ExactSums& sums) {
  if (static_cast<std::int64_t>(sums.size()) * ExactSums::kLimbs != reduce_->count())
    throw hympi::Error(hympi::ErrorCode::internal, "bpmf: exact sums of another size than the reduction");
  sums.fold();
  sums.to_limbs(reduce_->slot_as<std::int64_t>());
  reduce_->run();
  sums.from_limbs(reduce_->result_as<std::int64_t>());
}

}  // namespace bpmf
