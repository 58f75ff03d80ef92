// Contiguous partition of items over ranks, balanced by weight (rating counts):
// rank r owns items [bounds[r], bounds[r+1]). Contiguous ranges in rank order make
// the allgatherv result the whole latent matrix in item order.
#pragma once
#include <cstdint>
#include <vector>

namespace bpmf {

// Returns parts+1 nondecreasing bounds from 0 to weights.size(). Each boundary is
// placed where the running weight is closest to r/parts of the total.
std::vector<std::int64_t> balanced_ranges(const std::vector<std::int64_t>& weights, int parts);

}  // namespace bpmf
