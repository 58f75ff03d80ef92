#include "bpmf/training_matrix.hpp"

#include <algorithm>
#include <vector>

#include "hympi/topology.hpp"

namespace bpmf {

namespace {

std::size_t cache_lines(std::size_t bytes) {
  return (bytes + 63) / 64 * 64;  // every part on its own cache lines
}

}  // namespace

TrainingMatrix::Layout TrainingMatrix::layout_of(std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
  const auto n = static_cast<std::size_t>(nnz);
  Layout l{};
  std::size_t at = 0;
  const std::int64_t items[2] = {rows, cols};
  for (int s = 0; s < 2; ++s) {
    l.offsets[s] = at;
    at += cache_lines(sizeof(std::int64_t) * static_cast<std::size_t>(items[s] + 1));
  }
  for (int s = 0; s < 2; ++s) {
    l.value[s] = at;
    at += cache_lines(sizeof(double) * n);
  }
  for (int s = 0; s < 2; ++s) {
    l.index[s] = at;
    at += cache_lines(sizeof(std::int32_t) * n);
  }
  l.total = at;
  return l;
}

TrainingMatrix::TrainingMatrix(const hympi::Topology& topo, const Ratings& train, double mean, hympi::Policy policy,
                               hympi::SyncKind sync)
    : items_{train.rows, train.cols},
      nnz_(static_cast<std::int64_t>(train.entries.size())),
      layout_(layout_of(train.rows, train.cols, nnz_)),
      array_(topo, layout_.total, policy, sync) {
  array_.fill_by_leader([&](std::byte* base, std::size_t) { build(base, train, mean); });
  const std::byte* base = array_.data();
  for (int s = 0; s < 2; ++s) {
    view_[s].items = items_[s];
    view_[s].offsets = reinterpret_cast<const std::int64_t*>(base + layout_.offsets[s]);
    view_[s].index = reinterpret_cast<const std::int32_t*>(base + layout_.index[s]);
    view_[s].value = reinterpret_cast<const double*>(base + layout_.value[s]);
  }
}

// A counting sort per orientation; entries of an item stay in file order.
void TrainingMatrix::build(std::byte* base, const Ratings& train, double mean) const {
  for (int s = 0; s < 2; ++s) {
    auto* offsets = reinterpret_cast<std::int64_t*>(base + layout_.offsets[s]);
    auto* index = reinterpret_cast<std::int32_t*>(base + layout_.index[s]);
    auto* value = reinterpret_cast<double*>(base + layout_.value[s]);
    std::fill(offsets, offsets + items_[s] + 1, 0);
    for (const auto& e : train.entries) ++offsets[(s == 0 ? e.row : e.col) + 1];
    for (std::int64_t i = 0; i < items_[s]; ++i) offsets[i + 1] += offsets[i];
    std::vector<std::int64_t> fill(offsets, offsets + items_[s]);
    for (const auto& e : train.entries) {
      const auto at = fill[s == 0 ? e.row : e.col]++;
      index[at] = s == 0 ? e.col : e.row;
      value[at] = e.value - mean;
    }
  }
}

}  // namespace bpmf
