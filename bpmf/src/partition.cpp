#include "bpmf/partition.hpp"

#include <algorithm>

#include "hympi/error.hpp"

namespace bpmf {

std::vector<std::int64_t> balanced_ranges(const std::vector<std::int64_t>& weights, int parts) {
  if (parts < 1)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "bpmf: cannot partition over fewer than 1 part");
  const auto n = static_cast<std::int64_t>(weights.size());
  std::vector<std::int64_t> prefix(n + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    if (weights[i] < 0) throw hympi::Error(hympi::ErrorCode::invalid_argument, "bpmf: negative partition weight");
    prefix[i + 1] = prefix[i] + weights[i];
  }
  const double total = static_cast<double>(prefix[n]);
  std::vector<std::int64_t> bounds(parts + 1, 0);
  bounds[parts] = n;
  std::int64_t i = 0;
  for (int r = 1; r < parts; ++r) {
    const double target = total * r / parts;
    while (i < n && static_cast<double>(prefix[i + 1]) <= target) ++i;
    // prefix[i] <= target < prefix[i+1]: take whichever boundary is closer.
    std::int64_t b = i;
    if (i < n && static_cast<double>(prefix[i + 1]) - target < target - static_cast<double>(prefix[i])) b = i + 1;
    bounds[r] = std::max(b, bounds[r - 1]);
  }
  return bounds;
}

}  // namespace bpmf
