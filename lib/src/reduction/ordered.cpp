// options.deterministic: every rank's contribution is gathered (an Allgatherv of
// the chosen policy), then each element is combined in communicator-rank order,
// acc = x_0, acc = x_r op acc for r = 1..P-1: one fixed sequence of operations
// whatever the placement, node layout or policy, hence the same bits. Costs P
// times the vector in traffic and memory. Under hybrid the node's ranks combine
// disjoint slices into a double-buffered node result (the gather's own node sync
// keeps a rank from overwriting the half a neighbour still reads).
#include <cstring>
#include <vector>

#include "buffer_ring.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/node_sync.hpp"
#include "hympi/topology.hpp"
#include "reduction/engine.hpp"

namespace hympi::detail {

namespace {

class OrderedReduction final : public ReductionEngine {
 public:
  OrderedReduction(const Topology& topo, const ReductionArgs& args, const CollectiveOptions& options)
      : topo_(topo), args_(args), hybrid_(options.policy == Policy::hybrid), buffer_(topo) {
    CollectiveOptions gather_options = options;
    gather_options.deterministic = false;
    gather_ = Allgatherv::create_allgather(topo, args.count, args.extent, gather_options);
    if (hybrid_) {
      half_bytes_ = (args.bytes + 63) / 64 * 64;
      buffer_.reserve(2 * half_bytes_);
      sync_ = NodeSync::create(options.sync, topo, &buffer_);
    } else {
      private_.resize(args.bytes);
    }
  }

  void* slot() override { return gather_->slot(); }
  const void* result() const override { return hybrid_ ? half(ring_.front()) : private_.data(); }
  std::size_t bytes_per_node() const override {
    return gather_->bytes_per_node() +
           (hybrid_ ? 2 * half_bytes_ : args_.bytes * static_cast<std::size_t>(topo_.node_size()));
  }

  void run() override {
    gather_->run();
    if (!hybrid_) {
      if (args_.root < 0 || args_.root == topo_.rank()) combine(0, args_.count, private_.data());
      return;
    }
    // Under a reduce only the root's node combines (all of a node's ranks agree).
    if (args_.root < 0 || topo_.node_of(args_.root) == topo_.node_index()) {
      const int n = topo_.node_size(), i = topo_.node_rank();
      combine(part_begin(args_.count, n, i), part_begin(args_.count, n, i + 1), half(ring_.phase()));
      sync_->full();
    }
    ring_.land();
  }

 private:
  std::byte* half(int which) const { return buffer_.data() + which * half_bytes_; }

  // Elements [lo, hi) of the result, combined in communicator-rank order.
  void combine(std::int64_t lo, std::int64_t hi, std::byte* out) const {
    if (hi <= lo) return;  // empty slice: buffers may be null (memcpy's arguments must not)
    const auto* all = static_cast<const std::byte*>(gather_->result());
    const std::size_t row = args_.bytes, at = static_cast<std::size_t>(lo) * args_.extent;
    std::memcpy(out + at, all + at, static_cast<std::size_t>(hi - lo) * args_.extent);
    for (int r = 1; r < topo_.size(); ++r) reduce_local(all + r * row + at, out + at, hi - lo, args_);
  }

  const Topology& topo_;
  ReductionArgs args_;
  bool hybrid_;
  std::unique_ptr<Allgatherv> gather_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  std::size_t half_bytes_ = 0;
  std::vector<std::byte> private_;
  BufferRing ring_{2};
};

}  // namespace

std::unique_ptr<ReductionEngine> make_ordered_reduction(const Topology& topo, const ReductionArgs& args,
                                                        const CollectiveOptions& options) {
  return std::make_unique<OrderedReduction>(topo, args, options);
}

}  // namespace hympi::detail
