// The rooted data-movement collectives (rooted.hpp): gather and scatter, one
// algorithm for both directions. Pure: MPI_Gather / MPI_Scatter (MPI_Igather /
// MPI_Iscatter) on private buffers. Hybrid: the root's node holds one copy of the
// whole buffer (size() * count elements, rank r's part at r * count), every other
// node one copy of its own ranks' parts only (node_size() * count elements, node
// rank i's part at i * count), each in a shared window, double-buffered; every rank
// writes (gather) or reads (scatter) its own part in place. The parts cross nodes
// once: the node leaders exchange them over the bridge in one MPI_Alltoallw with
// the root's node. The root node's leader describes node n's parts in its whole
// copy by an hindexed datatype of node n's ranks (any placement, no packing);
// another node's leader sends or receives its compact copy as one contiguous block
// of node_size() * count elements (the same type signature).
//
// A call, for the nodes that send (gather: every node; scatter: the root's node):
// MPI_Win_sync, node barrier, MPI_Win_sync (the leader sees its node's writes);
// the leaders' exchange; then for the nodes that receive (gather: the root's node;
// scatter: every node) the same sync (the ranks see the leader's writes). The
// barriers are MPI_Ibarrier steps of a StepChain (grouped/steps.hpp), so start()
// never blocks and every test()/wait() drives MPI and every hympi flight.
//
// Why two copies suffice (on every node, whole or compact copy alike: the layout
// moves parts, not the order of calls and barriers): copy A, written or read in
// call k, is next written in call k + 2. A rank writes its slot for k + 2 only
// after its call k + 1 completed, which needed the node barrier of k + 1 (every
// node rank and the leader out of call k: nobody still reads A or sends from it); a
// leader receives into A in call k + 2 after a node barrier of k + 1 or k + 2 that
// every node rank entered only once it stopped reading the result of k.
#include "rooted.hpp"

#include <climits>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <algorithm>
#include <vector>

#include "bridges.hpp"
#include "grouped/grouped.hpp"
#include "grouped/steps.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"

namespace hympi::detail {

namespace {

#define HYMPI_ROOTED_FLAGS(a, b, c, d) a, b, c, d
#define HYMPI_ROOTED_SHAPE(name, Class, Kind, shape) {#name, HYMPI_ROOTED_FLAGS shape},
constexpr RootedShape kShapes[] = {HYMPI_ROOTED_COLLECTIVES(HYMPI_ROOTED_SHAPE)};
#undef HYMPI_ROOTED_SHAPE
#undef HYMPI_ROOTED_FLAGS

bool gathers(RootedKind kind) { return kind == RootedKind::gather; }

std::size_t round_up_64(std::size_t bytes) { return (bytes + 63) / 64 * 64; }

// This object's own node communicator: the nonblocking barriers of several objects
// in flight are posted in whatever order their chains advance.
struct OwnComm {
  MPI_Comm comm = MPI_COMM_NULL;
  explicit OwnComm(MPI_Comm of) { HYMPI_CHECK_MPI(MPI_Comm_dup(of, &comm)); }
  ~OwnComm() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
  OwnComm(const OwnComm&) = delete;
  OwnComm& operator=(const OwnComm&) = delete;
};

// The pure policy: MPI's own collective on private buffers.
class PureRooted final : public PersistentCollective {
 public:
  PureRooted(RootedKind kind, const Topology& topo, int root, std::int64_t count, std::size_t elem_size)
      : topology_owner_(topo.keep_alive()),
        is_root_(topo.rank() == root),
        type_(element_type(elem_size)),
        chain_(std::string(rooted_shape(kind).name), topo) {
    const std::size_t part = static_cast<std::size_t>(count) * elem_size;
    const std::size_t whole = part * static_cast<std::size_t>(topo.size());
    const RootedShape& shape = rooted_shape(kind);
    has_slot_ = is_root_ || shape.others_slot;
    has_result_ = is_root_ || shape.others_result;
    // Allocated inside the checks: the root's whole buffer failing on the root alone is
    // every rank's error (no rank left with a request the root never starts). A buffer
    // MPI ignores (a gather non-root's result, a scatter non-root's slot) is one byte.
    checked_together(topo.comm(), [&] {
      slot_.resize(std::max<std::size_t>(has_slot_ ? (is_root_ && shape.root_slot_whole ? whole : part) : 0, 1));
      result_.resize(
          std::max<std::size_t>(has_result_ ? (is_root_ && shape.root_result_whole ? whole : part) : 0, 1));
    });
    const int n = to_int_count(count, "count");
    const MPI_Comm comm = topo.comm();
    const MPI_Datatype t = type_.get();
    char* s = slot_.data();
    char* r = result_.data();
    if (gathers(kind))
      chain_.add(mpi_step([=] { HYMPI_CHECK_MPI(MPI_Gather(s, n, t, r, n, t, root, comm)); },
                          [=](Requests& q) { HYMPI_CHECK_MPI(MPI_Igather(s, n, t, r, n, t, root, comm, q.add())); },
                          requests_));
    else
      chain_.add(mpi_step([=] { HYMPI_CHECK_MPI(MPI_Scatter(s, n, t, r, n, t, root, comm)); },
                          [=](Requests& q) { HYMPI_CHECK_MPI(MPI_Iscatter(s, n, t, r, n, t, root, comm, q.add())); },
                          requests_));
  }
  void* slot() override { return has_slot_ ? slot_.data() : nullptr; }
  const void* result() const override { return has_result_ ? result_.data() : nullptr; }
  void run() override { chain_.run(); }
  void start() override { chain_.start(); }
  bool test() override { return chain_.test(); }
  void wait() override { chain_.wait(); }
  std::size_t bytes_per_node() const override { return slot_.size() + result_.size(); }

 private:
  std::shared_ptr<const Topology> topology_owner_;
  bool is_root_, has_slot_ = false, has_result_ = false;
  OwnedType type_;
  std::vector<char> slot_, result_;
  Requests requests_;
  StepChain chain_;  // last: destroyed in flight, it completes every step before the rest goes
};

class HybridRooted final : public PersistentCollective {
 public:
  HybridRooted(RootedKind kind, const Topology& topo, int root, std::int64_t count, std::size_t elem_size)
      : topology_owner_(topo.keep_alive()),
        topo_(topo),
        shape_(rooted_shape(kind)),
        is_root_(topo.rank() == root),
        on_root_node_(topo.node_index() == topo.node_of(root)),
        part_(static_cast<std::size_t>(count) * elem_size),
        copy_bytes_(round_up_64(part_ * static_cast<std::size_t>(on_root_node_ ? topo.size() : topo.node_size()))),
        buffer_(topo, 2 * copy_bytes_),
        node_(topo.node_comm()),
        bridges_(topo, 1),
        type_(element_type(elem_size)),
        chain_(std::string(shape_.name), topo) {
    const int root_node = topo.node_of(root), nodes = topo.num_nodes();
    const bool on_root_node = on_root_node_;
    const bool gather = gathers(kind);
    // gather: every node sends its parts to the root's node; scatter: the other way.
    const bool sends = gather || on_root_node, receives = !gather || on_root_node;
    if (topo.is_leader() && nodes > 1) {
      const int n = to_int_count(count, "count");
      const auto none = static_cast<std::size_t>(nodes);
      send_counts_.assign(none, 0);
      recv_counts_.assign(none, 0);
      displs_.assign(none, 0);
      const int me = topo.node_index();
      if (on_root_node) {
        // Node n's parts in the whole copy: rank r's count elements at byte r * count * elem_size.
        for (int node = 0; node < nodes; ++node) {
          const auto& ranks = topo.map().ranks_of_node[static_cast<std::size_t>(node)];
          std::vector<MPI_Aint> at;
          for (int r : ranks) at.push_back(static_cast<MPI_Aint>(static_cast<std::size_t>(r) * part_));
          MPI_Datatype t;
          HYMPI_CHECK_MPI(MPI_Type_create_hindexed_block(static_cast<int>(at.size()), n, at.data(), type_.get(), &t));
          HYMPI_CHECK_MPI(MPI_Type_commit(&t));
          node_types_.emplace_back(t);
          exchange_types_.push_back(node_types_.back().get());
        }
        // The root node's leader exchanges node n's parts with node n (node n's type).
        for (int node = 0; node < nodes; ++node)
          if (node != me) (gather ? recv_counts_ : send_counts_)[static_cast<std::size_t>(node)] = 1;
      } else {
        // Another node's leader: its compact copy, node_size() parts of count elements
        // from byte 0, as node_size() contiguous parts (node_size() * count elements: the
        // signature of this node's hindexed type at the root's node). Every entry gets
        // the type; only the root node's count is not 0.
        MPI_Datatype t;
        HYMPI_CHECK_MPI(MPI_Type_contiguous(n, type_.get(), &t));
        HYMPI_CHECK_MPI(MPI_Type_commit(&t));
        node_types_.emplace_back(t);
        exchange_types_.assign(none, node_types_.back().get());
        (gather ? send_counts_ : recv_counts_)[static_cast<std::size_t>(root_node)] = topo.node_size();
      }
    }
    if (sends) add_node_sync();
    if (topo.is_leader() && nodes > 1) {
      const MPI_Comm bridge = bridges_.comm(0);  // this object's own (bridge rank = node index)
      // A leader only sends (gather off the root's node, scatter on it) or only
      // receives: the other side is an unused dummy (MPI wants them apart).
      const bool only_sends = gather != on_root_node;
      auto buffers = [this, only_sends] {
        char* data = copy(phase_);
        return std::make_pair(only_sends ? data : &dummy_, only_sends ? &dummy_ : data);
      };
      chain_.add(mpi_step(
          [this, bridge, buffers] {
            const auto b = buffers();
            HYMPI_CHECK_MPI(MPI_Alltoallw(b.first, send_counts_.data(), displs_.data(), exchange_types_.data(),
                                          b.second, recv_counts_.data(), displs_.data(), exchange_types_.data(),
                                          bridge));
          },
          [this, bridge, buffers](Requests& q) {
            const auto b = buffers();
            HYMPI_CHECK_MPI(MPI_Ialltoallw(b.first, send_counts_.data(), displs_.data(), exchange_types_.data(),
                                           b.second, recv_counts_.data(), displs_.data(), exchange_types_.data(),
                                           bridge, q.add()));
          },
          requests_));
    }
    if (receives) add_node_sync();
    // Completed: the written copy is the result, the next call writes the other.
    chain_.add(local_step([this] {
      front_ = phase_;
      phase_ ^= 1;
    }));
  }
  void* slot() override {
    if (is_root_ && shape_.root_slot_whole) return copy(phase_);
    if (is_root_ || shape_.others_slot) return copy(phase_) + mine();
    return nullptr;
  }
  const void* result() const override {
    if (is_root_ && shape_.root_result_whole) return copy(front_);
    if (is_root_ || shape_.others_result) return copy(front_) + mine();
    return nullptr;
  }
  // start + wait: a blocking node barrier would hold a neighbour that needs this
  // rank's part of an earlier flight; a wait drives every flight and MPI.
  void run() override {
    chain_.start();
    chain_.wait();
  }
  void start() override { chain_.start(); }
  bool test() override { return chain_.test(); }
  void wait() override { chain_.wait(); }
  std::size_t bytes_per_node() const override { return buffer_.capacity(); }

 private:
  char* copy(int which) const {
    return reinterpret_cast<char*>(buffer_.data()) + static_cast<std::size_t>(which) * copy_bytes_;
  }
  // This rank's part: at its rank in the root node's whole copy, at its node rank in
  // another node's compact copy.
  std::size_t mine() const {
    return static_cast<std::size_t>(on_root_node_ ? topo_.rank() : topo_.node_rank()) * part_;
  }
  // Unified model: this rank's stores visible before the barrier, the others' after it.
  void add_node_sync() {
    chain_.add(local_step([this] { buffer_.sync_memory(); }));
    const MPI_Comm node = node_.comm;
    chain_.add(mpi_step([node] { HYMPI_CHECK_MPI(MPI_Barrier(node)); },
                        [node](Requests& q) { HYMPI_CHECK_MPI(MPI_Ibarrier(node, q.add())); }, requests_));
    chain_.add(local_step([this] { buffer_.sync_memory(); }));
  }

  std::shared_ptr<const Topology> topology_owner_;
  const Topology& topo_;
  const RootedShape& shape_;
  bool is_root_, on_root_node_;
  std::size_t part_, copy_bytes_;  // copy_bytes_: one copy (whole on the root's node, compact elsewhere)
  NodeBuffer buffer_;
  OwnComm node_;
  Bridges bridges_;
  OwnedType type_;
  std::vector<OwnedType> node_types_;
  std::vector<MPI_Datatype> exchange_types_;  // per node: MPI_Alltoallw's send and receive types
  char dummy_ = 0;
  std::vector<int> send_counts_, recv_counts_, displs_;
  int phase_ = 0, front_ = 1;
  Requests requests_;
  StepChain chain_;  // last: destroyed in flight, it completes every step before the rest goes
};

}  // namespace

const RootedShape& rooted_shape(RootedKind kind) { return kShapes[static_cast<int>(kind)]; }

std::int64_t rooted_slot_count(RootedKind kind, bool is_root, int size, std::int64_t count) {
  const RootedShape& s = rooted_shape(kind);
  if (is_root) return s.root_slot_whole ? count * size : count;
  return s.others_slot ? count : 0;
}

std::int64_t rooted_result_count(RootedKind kind, bool is_root, int size, std::int64_t count) {
  const RootedShape& s = rooted_shape(kind);
  if (is_root) return s.root_result_whole ? count * size : count;
  return s.others_result ? count : 0;
}

std::unique_ptr<PersistentCollective> create_rooted(RootedKind kind, const Topology& topo, int root,
                                                    std::int64_t count, std::size_t elem_size,
                                                    const CollectiveOptions& options, Agreement& agreement) {
  const std::string name = rooted_shape(kind).name;
  // Every item whatever the values (agreement.hpp's rule): root, count, element
  // size and the options, checked locally first.
  agreement.options(options);
  agreement.check([&] {
    topo.require_comm_alive((name + " creation").c_str());
    require(root >= 0 && root < topo.size(), name + " root " + std::to_string(root) +
                                                 " is not a rank of the communicator (size " +
                                                 std::to_string(topo.size()) + ")");
    require(count >= 0, name + " count must be >= 0, got " + std::to_string(count));
    to_int_count(count, (name + " count").c_str());
    require(elem_size > 0 && elem_size <= static_cast<std::size_t>(INT_MAX),
            name + " element size must be from 1 to " + std::to_string(INT_MAX) + " bytes, got " +
                std::to_string(elem_size));
    // Two copies of size() * count elements (hybrid, the root's node), each rounded up to 64 bytes.
    const auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::size_t>::max() / 4 - 64);
    require(static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(topo.size()) <= limit / elem_size,
            name + " count " + std::to_string(count) + " x " + std::to_string(topo.size()) + " ranks x element size " +
                std::to_string(elem_size) + " bytes overflows size_t",
            ErrorCode::out_of_memory);
  });
  agreement.same(name + " root", root);
  agreement.same(name + " count", count);
  agreement.same(name + " element size", static_cast<std::int64_t>(elem_size));
  agreement.run(topo.comm());  // the one round: every rank then takes the same path
  if (options.groups != 1) {
    const std::int64_t bytes = count * topo.size() * static_cast<std::int64_t>(elem_size);
    const auto plan = grouped_plan(topo, options, bytes, root);
    if (!is_flat(topo, options, plan)) return make_grouped_rooted(kind, topo, root, count, elem_size, options, plan);
  }
  if (options.policy == Policy::pure) return std::make_unique<PureRooted>(kind, topo, root, count, elem_size);
  return std::make_unique<HybridRooted>(kind, topo, root, count, elem_size);
}

}  // namespace hympi::detail

namespace hympi {

#define HYMPI_ROOTED_CREATE(name, Class, Kind, shape) \
  std::unique_ptr<PersistentCollective> Class::create(const Topology& topo, int root, std::int64_t count,         \
                                                      std::size_t elem_size, CollectiveOptions options) {         \
    detail::Agreement agreement;                                                                                  \
    return detail::create_rooted(detail::RootedKind::Kind, topo, root, count, elem_size, options, agreement);     \
  }
HYMPI_ROOTED_COLLECTIVES(HYMPI_ROOTED_CREATE)
#undef HYMPI_ROOTED_CREATE

}  // namespace hympi
