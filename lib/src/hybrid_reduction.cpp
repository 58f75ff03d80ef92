// Policy hybrid. Each half of a double-buffered node window holds one slot per
// node rank and the node's result. A run: (1) node sync: every contribution is
// visible; (2) node rank i reduces slice i of all slots into the result, by
// load/store, in parallel with its neighbours; (3) node sync; the bridge owners
// allreduce (or reduce to the root's node) their piece of the result over their
// own bridge communicator; (4) node sync: the result is visible. Run k uses half
// k % 2: a rank entering run k+1 cannot overwrite what a neighbour still reads
// from run k, and nobody writes half k % 2 again before every node rank entered
// run k+1 (the sync of step 1).
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "bridges.hpp"
#include "comm_from_ranks.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/node_sync.hpp"
#include "hympi/topology.hpp"
#include "reduction_engine.hpp"

namespace hympi::detail {

namespace {

// A range of the result that this rank allreduces across nodes, and over which
// communicator (rank = node index).
struct BridgePiece {
  std::int64_t lo, hi;
  MPI_Comm comm;
  bool owned;  // created here (multi-leader) rather than the topology's bridge
};

constexpr int kBridgeTagBase = 0x4852;  // distinct from the topology's and grids' tags

class HybridReduction final : public ReductionEngine {
 public:
  HybridReduction(const Topology& topo, const ReductionArgs& args, const CollectiveOptions& options)
      : topo_(topo), args_(args), buffer_(topo) {
    sync_ = NodeSync::create(options.sync, topo, &buffer_);
    const auto slots = static_cast<std::size_t>(topo.node_size()) + 1;
    checked_together(topo.comm(), [&] {
      slot_bytes_ = (args.bytes + 63) / 64 * 64;
      require(slot_bytes_ >= args.bytes && slot_bytes_ <= std::numeric_limits<std::size_t>::max() / 2 / slots,
              "reduction vector of " + std::to_string(args.bytes) + " bytes overflows size_t",
              ErrorCode::out_of_memory);
    });
    half_bytes_ = slot_bytes_ * slots;
    buffer_.reserve(2 * half_bytes_);
    plan_bridges(options.leaders);
    for (int which = 0; which < 2; ++which) std::memset(slot_of(which, topo.node_rank()), 0, args.bytes);
    sync_->full();
  }
  ~HybridReduction() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    for (BridgePiece& piece : pieces_)
      if (piece.owned && !finalized) MPI_Comm_free(&piece.comm);
  }

  void* slot() override { return slot_of(phase_, topo_.node_rank()); }
  const void* result() const override { return result_of(front_); }
  std::size_t bytes_per_node() const override { return 2 * half_bytes_; }

  void run() override {
    topo_.require_comm_alive(args_.root < 0 ? "allreduce run()" : "reduce run()");
    sync_->full();
    reduce_node_slice();
    if (topo_.num_nodes() == 1) {
      sync_->full();
    } else if (leaders_ == 1) {
      sync_->arrive();
      reduce_across_nodes();
      sync_->release();
    } else {
      sync_->full();
      reduce_across_nodes();
      sync_->full();
    }
    front_ = phase_;
    phase_ ^= 1;
  }

 private:
  std::byte* slot_of(int which, int node_rank) const {
    return buffer_.data() + which * half_bytes_ + static_cast<std::size_t>(node_rank) * slot_bytes_;
  }
  std::byte* result_of(int which) const { return slot_of(which, topo_.node_size()); }

  // Slice node_rank of the node's contributions into the result half.
  void reduce_node_slice() {
    const int n = topo_.node_size(), i = topo_.node_rank();
    const std::int64_t lo = part_begin(args_.count, n, i), hi = part_begin(args_.count, n, i + 1);
    if (hi <= lo) return;
    const std::size_t at = static_cast<std::size_t>(lo) * args_.extent;
    std::byte* out = result_of(phase_) + at;
    std::memcpy(out, slot_of(phase_, 0) + at, static_cast<std::size_t>(hi - lo) * args_.extent);
    for (int r = 1; r < n; ++r) reduce_local(slot_of(phase_, r) + at, out, hi - lo, args_);
  }

  void reduce_across_nodes() {
    const int root_node = args_.root < 0 ? -1 : topo_.node_of(args_.root);
    for (const BridgePiece& piece : pieces_)
      for_each_int_chunk(piece.hi - piece.lo, [&](std::int64_t offset, int n) {
        std::byte* data = result_of(phase_) + static_cast<std::size_t>(piece.lo + offset) * args_.extent;
        if (root_node < 0)
          HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, data, n, args_.type, args_.op, piece.comm));
        else if (topo_.node_index() == root_node) {
          // Not MPI_IN_PLACE: MPICH 4.0's node-aware reduce crashed with it at the root.
          std::memcpy(scratch_.data(), data, static_cast<std::size_t>(n) * args_.extent);
          HYMPI_CHECK_MPI(MPI_Reduce(scratch_.data(), data, n, args_.type, args_.op, root_node, piece.comm));
        } else {  // MPICH 4.0 also writes through a non-root's recvbuf: give it room
          HYMPI_CHECK_MPI(MPI_Reduce(data, scratch_.data(), n, args_.type, args_.op, root_node, piece.comm));
        }
      });
  }

  // k pieces of the vector; piece j is exchanged by node rank j % (node size) of
  // every node, over a communicator of those ranks in node order. A rank owning
  // several pieces handles them in increasing j, like everyone: no cycle.
  void plan_bridges(int requested) {
    const NodeRankMap& map = topo_.map();
    int max_node = 1;
    for (const auto& ranks : map.ranks_of_node) max_node = std::max(max_node, static_cast<int>(ranks.size()));
    int k = requested > 0 ? requested : automatic_leaders(args_.bytes, max_node);
    k = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({k, max_node, args_.count})));
    leaders_ = k;
    if (topo_.num_nodes() == 1) return;
    if (k == 1) {
      if (topo_.is_leader()) pieces_.push_back({0, args_.count, topo_.bridge_comm(), false});
      size_scratch();
      return;
    }
    for (int j = 0; j < k; ++j) {
      std::vector<int> members;
      for (const auto& ranks : map.ranks_of_node) members.push_back(ranks[j % ranks.size()]);
      if (std::find(members.begin(), members.end(), topo_.rank()) == members.end()) continue;
      pieces_.push_back({part_begin(args_.count, k, j), part_begin(args_.count, k, j + 1),
                         comm_from_ranks(topo_.comm(), members, kBridgeTagBase + j), true});
    }
    size_scratch();
  }

  // A reduce's bridge members need a separate buffer for MPI_Reduce: one chunk of their largest piece.
  void size_scratch() {
    if (args_.root < 0) return;
    std::int64_t most = 0;
    for (const BridgePiece& piece : pieces_) most = std::max(most, piece.hi - piece.lo);
    scratch_.resize(static_cast<std::size_t>(std::min(most, kChunk)) * args_.extent);
  }

  const Topology& topo_;
  ReductionArgs args_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  std::size_t slot_bytes_ = 0, half_bytes_ = 0;
  int leaders_ = 1;
  std::vector<BridgePiece> pieces_;
  std::vector<std::byte> scratch_;
  int phase_ = 0, front_ = 1;
};

}  // namespace

std::unique_ptr<ReductionEngine> make_hybrid_reduction(const Topology& topo, const ReductionArgs& args,
                                                       const CollectiveOptions& options) {
  return std::make_unique<HybridReduction>(topo, args, options);
}

}  // namespace hympi::detail
