// Policy hybrid. Each half of a double-buffered node window holds one slot per
// node rank and the node's result. A run: (1) node sync: every contribution is
// visible; (2) node rank i reduces slice i of all slots into the result, by
// load/store, in parallel with its neighbours; (3) node sync; the bridge owners
// allreduce (or reduce to the root's node) their piece of the result over their
// own bridge communicator; (4) node sync: the result is visible. Run k uses half
// k % 2: a rank entering run k+1 cannot overwrite what a neighbour still reads
// from run k, and nobody writes half k % 2 again before every node rank entered
// run k+1 (the sync of step 1). start/test/wait (allreduce) take the same steps
// through the node exchange (node_exchange.hpp): the syncs become announcements,
// the combining runs in whichever test()/wait() sees the node arrived, and the
// owners' bridge reductions are MPI_Iallreduce / MPI_Ireduce requests.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "bridges.hpp"
#include "buffer_ring.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/node_sync.hpp"
#include "hympi/topology.hpp"
#include "node_exchange.hpp"
#include "reduction/engine.hpp"

namespace hympi::detail {

namespace {

// Elements [lo, hi) of the result: the piece one bridge slice allreduces across nodes.
struct BridgePiece {
  std::int64_t lo, hi;
};

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
    exchange_ = std::make_unique<NodeExchange>(topo, *sync_, *bridges_, options.progress_thread);
    for (int which = 0; which < 2; ++which) std::memset(slot_of(which, topo.node_rank()), 0, args.bytes);
    sync_->full();
  }

  void* slot() override { return slot_of(ring_.phase(), topo_.node_rank()); }
  const void* result() const override { return result_of(ring_.front()); }
  std::size_t bytes_per_node() const override { return 2 * half_bytes_; }

  void run() override {
    topo_.require_comm_alive(args_.root < 0 ? "allreduce run()" : "reduce run()");
    require_idle(exchange_->in_flight(), args_.root < 0 ? "allreduce" : "reduce", "run()");
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
    land();
  }

  void start() override {
    topo_.require_comm_alive(args_.root < 0 ? "allreduce start()" : "reduce start()");
    require_idle(exchange_->in_flight(), args_.root < 0 ? "allreduce" : "reduce", "start()");
    const int which = ring_.phase();
    exchange_->start(
        [this, which](int j, MPI_Comm bridge, Requests& requests) { post_piece(which, j, bridge, requests); },
        [this] { reduce_node_slice(); }, [this] { land(); });
  }
  bool test() override { return exchange_->test(); }
  void wait() override { exchange_->wait(); }

 private:
  void land() { ring_.land(); }
  BridgePiece piece(int j) const {
    return {part_begin(args_.count, leaders_, j), part_begin(args_.count, leaders_, j + 1)};
  }

  // Piece j of half `which` on its bridge as nonblocking requests: allreduced in
  // place, or reduced to the root's node (through scratch_, as the blocking form).
  void post_piece(int which, int j, MPI_Comm bridge, Requests& requests) {
    const BridgePiece p = piece(j);
    const int root_node = args_.root < 0 ? -1 : topo_.node_of(args_.root);
    for_each_int_chunk(p.hi - p.lo, [&](std::int64_t offset, int n) {
      const std::size_t at = static_cast<std::size_t>(p.lo + offset) * args_.extent;
      std::byte* data = result_of(which) + at;
      if (root_node < 0) {
        HYMPI_CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, data, n, args_.type, args_.op, bridge, requests.add()));
      } else if (topo_.node_index() == root_node) {
        std::memcpy(scratch_.data() + at, data, static_cast<std::size_t>(n) * args_.extent);
        HYMPI_CHECK_MPI(
            MPI_Ireduce(scratch_.data() + at, data, n, args_.type, args_.op, root_node, bridge, requests.add()));
      } else {
        HYMPI_CHECK_MPI(
            MPI_Ireduce(data, scratch_.data() + at, n, args_.type, args_.op, root_node, bridge, requests.add()));
      }
    });
  }

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
    std::byte* out = result_of(ring_.phase()) + at;
    std::memcpy(out, slot_of(ring_.phase(), 0) + at, static_cast<std::size_t>(hi - lo) * args_.extent);
    for (int r = 1; r < n; ++r) reduce_local(slot_of(ring_.phase(), r) + at, out, hi - lo, args_);
  }

  void reduce_across_nodes() {
    ProgressEngine::poke();  // what else flies posts what it can before this rank blocks in MPI
    const int root_node = args_.root < 0 ? -1 : topo_.node_of(args_.root);
    for (int j : bridges_->owned()) {
      const BridgePiece p = piece(j);
      const MPI_Comm comm = bridges_->comm(j);
      for_each_int_chunk(p.hi - p.lo, [&](std::int64_t offset, int n) {
        std::byte* data = result_of(ring_.phase()) + static_cast<std::size_t>(p.lo + offset) * args_.extent;
        if (root_node < 0)
          HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, data, n, args_.type, args_.op, comm));
        else if (topo_.node_index() == root_node) {
          // Not MPI_IN_PLACE: MPICH 4.0's node-aware reduce crashed with it at the root.
          std::byte* copy = scratch_.data() + static_cast<std::size_t>(p.lo + offset) * args_.extent;
          std::memcpy(copy, data, static_cast<std::size_t>(n) * args_.extent);
          HYMPI_CHECK_MPI(MPI_Reduce(copy, data, n, args_.type, args_.op, root_node, comm));
        } else {  // MPICH 4.0 also writes through a non-root's recvbuf: give it room
          std::byte* room = scratch_.data() + static_cast<std::size_t>(p.lo + offset) * args_.extent;
          HYMPI_CHECK_MPI(MPI_Reduce(data, room, n, args_.type, args_.op, root_node, comm));
        }
      });
    }
  }

  // k pieces of the vector (never more than elements); piece j is exchanged by
  // the owner of bridge slice j. The pieces are cut by part_begin, not
  // slice_range: another cut would change which elements meet in one
  // MPI_Allreduce call, and with it floating-point bits.
  void plan_bridges(int requested) {
    leaders_ = static_cast<int>(std::max<std::int64_t>(
        1, std::min<std::int64_t>(effective_leaders(topo_, requested, args_.bytes), args_.count)));
    bridges_ = std::make_unique<Bridges>(topo_, leaders_);
    if (topo_.num_nodes() > 1) size_scratch();
  }

  // A reduce's bridge members need a separate buffer for MPI_(I)Reduce, at the
  // offsets of the vector (their pieces fly at once in the nonblocking form).
  void size_scratch() {
    if (args_.root >= 0 && bridges_->owns_any()) scratch_.resize(args_.bytes);
  }

  const Topology& topo_;
  ReductionArgs args_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  std::size_t slot_bytes_ = 0, half_bytes_ = 0;
  int leaders_ = 1;
  std::unique_ptr<Bridges> bridges_;
  std::vector<std::byte> scratch_;
  BufferRing ring_{2};
  std::unique_ptr<NodeExchange> exchange_;  // last: destroyed in flight, it completes first
};

}  // namespace

std::unique_ptr<ReductionEngine> make_hybrid_reduction(const Topology& topo, const ReductionArgs& args,
                                                       const CollectiveOptions& options) {
  return std::make_unique<HybridReduction>(topo, args, options);
}

}  // namespace hympi::detail
