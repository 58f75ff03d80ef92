// What the reductions combine and the plain reference they are checked against:
// rank `rank`'s element `i` in `iteration`, and the fold of every rank's element
// computed locally in rank order. The values are small integers so that every
// fold is exact in every type, whatever order an implementation combines in:
// sums of values < 2^8 (float) or < 2^16 stay below 2^24 / 2^31 up to 65536 /
// 32768 ranks; a product has one factor 2 (from a rank that moves with i and the
// iteration) and 1s elsewhere.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "operation.hpp"

namespace hympi::bench {

template <class T>
T reduce_value(const std::string& op, int iteration, int rank, std::int64_t i, int ranks) {
  if (op == "prod") return static_cast<T>((i + iteration) % ranks == rank ? 2 : 1);
  const std::uint64_t mask = sizeof(T) == 4 && T(0.5) != T(0) ? 0xff : 0xffff;  // float: 8 bits
  return static_cast<T>(static_cast<std::uint64_t>(pattern(iteration, rank, i)) & mask);
}

template <class T>
T reduce_expected(const std::string& op, int iteration, std::int64_t i, int ranks) {
  T acc = reduce_value<T>(op, iteration, 0, i, ranks);
  for (int r = 1; r < ranks; ++r) {
    const T x = reduce_value<T>(op, iteration, r, i, ranks);
    if (op == "sum")
      acc = static_cast<T>(acc + x);
    else if (op == "prod")
      acc = static_cast<T>(acc * x);
    else if (op == "min")
      acc = std::min(acc, x);
    else
      acc = std::max(acc, x);
  }
  return acc;
}

}  // namespace hympi::bench
