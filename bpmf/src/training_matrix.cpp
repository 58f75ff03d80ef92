#include "bpmf/training_matrix.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "hympi/error.hpp"
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

TrainingInput training_input(const Ratings& ratings, double mean) {
  return {ratings.rows, ratings.cols, static_cast<std::int64_t>(ratings.entries.size()), mean,
          [&ratings](const std::function<void(const Entry&)>& emit) {
            for (const auto& e : ratings.entries) emit(e);
          }};
}

TrainingInput training_input(const Ratings& ratings) {
  return training_input(ratings, mean_value(ratings));
}

TrainingMatrix::TrainingMatrix(const hympi::Topology& topo, const Ratings& train, double mean, hympi::Policy policy,
                               hympi::SyncKind sync)
    : TrainingMatrix(topo, training_input(train, mean), policy, sync) {}

TrainingMatrix::TrainingMatrix(const hympi::Topology& topo, const TrainingInput& train, hympi::Policy policy,
                               hympi::SyncKind sync)
    : TrainingMatrix(topo, train.rows, train.cols, train.nnz, train.source, train.mean, policy, sync) {}

TrainingMatrix::TrainingMatrix(const hympi::Topology& topo, std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                               const TrainingSource& source, double mean, hympi::Policy policy, hympi::SyncKind sync)
    : items_{rows, cols}, nnz_(nnz), layout_(layout_of(rows, cols, nnz_)), array_(topo, layout_.total, policy, sync) {
  array_.fill_by_leader([&](std::byte* base, std::size_t) { build(base, source, mean); });
  const std::byte* base = array_.data();
  for (int s = 0; s < 2; ++s) {
    view_[s].items = items_[s];
    view_[s].offsets = reinterpret_cast<const std::int64_t*>(base + layout_.offsets[s]);
    view_[s].index = reinterpret_cast<const std::int32_t*>(base + layout_.index[s]);
    view_[s].value = reinterpret_cast<const double*>(base + layout_.value[s]);
  }
}

// A counting sort of both orientations in two passes over the source (count, then
// place); entries of an item stay in file order. The counting pass checks the
// source against the shape and nnz before anything is written past the offsets.
void TrainingMatrix::build(std::byte* base, const TrainingSource& source, double mean) const {
  std::int64_t* offsets[2];
  for (int s = 0; s < 2; ++s) {
    offsets[s] = reinterpret_cast<std::int64_t*>(base + layout_.offsets[s]);
    std::fill(offsets[s], offsets[s] + items_[s] + 1, 0);
  }
  std::int64_t seen = 0;
  source([&](const Entry& e) {
    if (e.row < 0 || e.row >= items_[0] || e.col < 0 || e.col >= items_[1])
      throw hympi::Error(hympi::ErrorCode::invalid_argument, "training matrix: an entry lies outside the shape");
    ++offsets[0][e.row + 1];
    ++offsets[1][e.col + 1];
    ++seen;
  });
  if (seen != nnz_)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "training matrix: the source gave " + std::to_string(seen) +
                                                               " entries, " + std::to_string(nnz_) + " announced");
  std::vector<std::int64_t> fill[2];
  for (int s = 0; s < 2; ++s) {
    for (std::int64_t i = 0; i < items_[s]; ++i) offsets[s][i + 1] += offsets[s][i];
    fill[s].assign(offsets[s], offsets[s] + items_[s]);
  }
  auto* index0 = reinterpret_cast<std::int32_t*>(base + layout_.index[0]);
  auto* index1 = reinterpret_cast<std::int32_t*>(base + layout_.index[1]);
  auto* value0 = reinterpret_cast<double*>(base + layout_.value[0]);
  auto* value1 = reinterpret_cast<double*>(base + layout_.value[1]);
  source([&](const Entry& e) {
    const double v = e.value - mean;
    const auto r = fill[0][e.row]++, c = fill[1][e.col]++;
    if (r >= offsets[0][e.row + 1] || c >= offsets[1][e.col + 1])  // never write past an item's share
      throw hympi::Error(hympi::ErrorCode::invalid_argument, "training matrix: the source replayed other entries");
    index0[r] = e.col;
    value0[r] = v;
    index1[c] = e.row;
    value1[c] = v;
  });
}

}  // namespace bpmf
