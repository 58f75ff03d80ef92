// The training ratings in both orientations - by row (CSR) and by column (CSC as
// a CSR of the transpose), values centred by the training mean - held in one
// hympi::NodeSharedArray: one copy per node under Policy::hybrid, one per rank
// under Policy::pure. The sampler reads both through the same view, so the
// algorithm is written once. Within an item the ratings keep file order (the same
// on every rank), which keeps results bitwise independent of the policy.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>

#include "bpmf/ratings.hpp"
#include "hympi/collectives.hpp"
#include "hympi/node_shared_array.hpp"

namespace hympi {
class Topology;
}

namespace bpmf {

// The ratings of one side's items: item i has offsets[i+1] - offsets[i] ratings,
// other-side indices index[offsets[i]...] and centred values value[offsets[i]...].
struct SideView {
  std::int64_t items = 0;
  const std::int64_t* offsets = nullptr;  // items + 1
  const std::int32_t* index = nullptr;
  const double* value = nullptr;
  std::int64_t count(std::int64_t item) const { return offsets[item + 1] - offsets[item]; }
};

// Replays the training entries, in file order, into `emit`; may be called more than once
// (a counting pass, then a filling pass), so a generator can stream instead of storing.
using TrainingSource = std::function<void(const std::function<void(const Entry&)>& emit)>;

// The training ratings as the sampler takes them: shape, count, mean and a source that
// replays the entries (a Ratings in memory, or a generator streaming them on demand).
struct TrainingInput {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  double mean = 0.0;
  TrainingSource source;
};

// `ratings` as a TrainingInput with the given mean (a caller that knows it, or whose
// use needs none, need not pass over the entries again); `ratings` must outlive it.
TrainingInput training_input(const Ratings& ratings, double mean);
// The same with mean_value's mean.
TrainingInput training_input(const Ratings& ratings);

class TrainingMatrix {
 public:
  // Collective over topo.comm(). `train` is read only where the copy is built (the
  // node leader under hybrid, every rank under pure); it must be the same matrix on
  // every rank. Not enough /dev/shm is hympi::Error(out_of_memory) on every rank.
  TrainingMatrix(const hympi::Topology& topo, const Ratings& train, double mean, hympi::Policy policy,
                 hympi::SyncKind sync = hympi::SyncKind::barrier);
  TrainingMatrix(const hympi::Topology& topo, const TrainingInput& train, hympi::Policy policy,
                 hympi::SyncKind sync = hympi::SyncKind::barrier);
  // The same matrix from a source of `nnz` entries within rows x cols, replayed only
  // where the copy is built: no rank holds the entries, so the peak is the copy itself.
  // A source that disagrees with nnz or the shape is hympi::Error(invalid_argument) on
  // every rank.
  TrainingMatrix(const hympi::Topology& topo, std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                 const TrainingSource& source, double mean, hympi::Policy policy,
                 hympi::SyncKind sync = hympi::SyncKind::barrier);

  // side 0 = rows (index = column), 1 = columns (index = row).
  const SideView& side(int s) const { return view_[s]; }
  std::int64_t ratings() const { return nnz_; }
  // Bytes of this matrix on this rank's node (hybrid: one copy; pure: one per node rank).
  std::size_t bytes_per_node() const { return array_.bytes_per_node(); }
  bool shared() const { return array_.shared(); }

 private:
  struct Layout {
    std::size_t offsets[2], index[2], value[2], total;
  };
  static Layout layout_of(std::int64_t rows, std::int64_t cols, std::int64_t nnz);
  void build(std::byte* base, const TrainingSource& source, double mean) const;

  std::int64_t items_[2], nnz_;
  Layout layout_;
  hympi::NodeSharedArray array_;
  SideView view_[2];
};

}  // namespace bpmf
