#include <climits>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "agreement.hpp"
#include "bridges.hpp"
#include "creates.hpp"
#include "buffer_ring.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"
#include "grouped/grouped.hpp"
#include "node_exchange.hpp"
#include "page_buffer.hpp"
#include "requests.hpp"

#ifdef HYMPI_SMPI_COSTS
extern "C" void hympi_smpi_charge_copy(std::size_t bytes);  // the SimGrid build's glue
#endif

namespace hympi {

namespace {

// On the hot path: build the messages only when something is wrong. Every rank
// runs every check before any synchronization (also the int range, which only
// the ranks that call MPI need), so with arguments that agree, as MPI requires,
// all ranks fail together and none is left waiting.
void check_call(const Topology& topo, int root, std::int64_t count, std::int64_t capacity) {
  topo.require_comm_alive("bcast");
  if (root >= 0 && root < topo.size() && count >= 0 && count <= capacity && count <= INT_MAX) return;
  require(root >= 0 && root < topo.size(),
          "bcast root " + std::to_string(root) + " is outside [0, " + std::to_string(topo.size()) + ")");
  require(count >= 0 && count <= capacity,
          "bcast count " + std::to_string(count) + " is outside [0, capacity " + std::to_string(capacity) + "]");
  detail::to_int_count(count, "bcast count");
}

// The buffer ring and the start/wait bookkeeping both policies share: the root
// writes slot `phase`, readers read slot `front`; completing a broadcast makes the
// written slot the front and moves on. One broadcast in flight at a time. Once a
// start() completed (by test() or wait()), further test()/wait() return at once
// until the next start(), as Allgatherv's and as MPI's on an inactive request;
// a wait() with no start() since the last run() (or ever) is an error.
class SlotRing {
 public:
  explicit SlotRing(int slots) : ring_(slots) {}
  int phase() const { return ring_.phase(); }
  int front() const { return ring_.front(); }
  int slots() const { return ring_.slots(); }
  bool completed() const { return completed_; }
  void require_idle(const char* call) const {
    detail::require_idle(in_flight_, "bcast", call);
  }
  void require_in_flight(const char* call = "wait()") const {
    if (!in_flight_) require(false, std::string("bcast ") + call + " without a start()");
  }
  void begin() {
    require_idle("start()");
    in_flight_ = true;
    completed_ = false;
  }
  // The broadcast in flight completed: it lands, and later waits are free.
  void end() {
    require_in_flight();
    in_flight_ = false;
    land();
    completed_ = true;
  }
  void land() {
    completed_ = false;
    ring_.land();
  }

 private:
  detail::BufferRing ring_;
  bool in_flight_ = false, completed_ = false;
};

// What both policies' broadcasts hold (the topology, the element type, a ring of
// `slots` result slots) and Bcast's fields, set once for both.
class RingBcast : public Bcast {
 protected:
  RingBcast(const Topology& topo, std::int64_t capacity, std::size_t elem_size, CollectiveOptions options, int slots)
      : topo_(topo), type_(detail::element_type(elem_size)), ring_(slots) {
    capacity_ = capacity;
    elem_size_ = elem_size;
    options_ = options;
    topology_owner_ = topo.keep_alive();
  }

 public:
  // run()/start() without the root and count checks: for callers that checked
  // them once (a fixed broadcast, at creation). The communicator and the
  // in-flight guard are still checked.
  virtual void run_checked(int root, std::int64_t count, const void* root_data) = 0;
  virtual void start_checked(int root, std::int64_t count, const void* root_data) = 0;
  // The root and count checked on every call, then the policy's run/start.
  void run(int root, std::int64_t count, const void* root_data) final {
    check_call(topo_, root, count, capacity_);
    run_checked(root, count, root_data);
  }
  void start(int root, std::int64_t count, const void* root_data) final {
    check_call(topo_, root, count, capacity_);
    start_checked(root, count, root_data);
  }

 protected:
  const Topology& topo_;
  detail::OwnedType type_;
  SlotRing ring_;
};

class PureBcast final : public RingBcast {
 public:
  PureBcast(const Topology& topo, std::int64_t capacity, std::size_t elem_size, CollectiveOptions options)
      : RingBcast(topo, capacity, elem_size, options, options.overlap ? 2 : 1),
        slot_bytes_(capacity * elem_size),
        data_(ring_.slots() * slot_bytes_),
        sent_from_(ring_.slots(), nullptr) {}
  void* buffer() override { return slot(ring_.phase()); }
  const void* result() const override {
    const int front = ring_.front();
    return sent_from_[front] ? sent_from_[front] : slot(front);
  }
  void run_checked(int root, std::int64_t count, const void* root_data) override {
    topo_.require_comm_alive("bcast");
    ring_.require_idle("run()");
    HYMPI_CHECK_MPI(MPI_Bcast(source(root, root_data), detail::to_int_count(count, "bcast count"), type_.get(), root,
                              topo_.comm()));
    ring_.land();
  }
  void start_checked(int root, std::int64_t count, const void* root_data) override {
    topo_.require_comm_alive("bcast");
    ring_.begin();
    HYMPI_CHECK_MPI(MPI_Ibcast(source(root, root_data), detail::to_int_count(count, "bcast count"), type_.get(), root,
                               topo_.comm(), request_.add()));
  }
  void wait() override {
    topo_.require_comm_alive("bcast wait()");
    if (ring_.completed()) return;
    ring_.require_in_flight();
    request_.wait();
    ring_.end();
  }
  bool test() override {
    topo_.require_comm_alive("bcast test()");
    if (ring_.completed()) return true;
    ring_.require_in_flight("test()");
    if (!request_.test()) return false;
    ring_.end();
    return true;
  }
  std::size_t bytes_per_node() const override { return data_.size() * topo_.node_size(); }

 private:
  std::byte* slot(int which) const { return const_cast<std::byte*>(data_.data()) + which * slot_bytes_; }
  // The root sends straight from its own data when it has it contiguous.
  void* source(int root, const void* root_data) {
    const bool direct = root_data && topo_.rank() == root;
    sent_from_[ring_.phase()] = direct ? root_data : nullptr;
    return direct ? const_cast<void*>(root_data) : buffer();
  }

  std::size_t slot_bytes_;
  detail::PageBuffer data_;
  std::vector<const void*> sent_from_;  // per slot: the root's own data, or null
  detail::Requests request_;            // last: a broadcast in flight completes before the buffers go
};

// One copy per node in a ring of node copies: 2 (each result stays valid until
// this rank's next broadcast) or 3 with overlap (one more in flight). The root
// (leader or not) writes into the node copy; the node's slice owners (one leader
// by default, bridges.hpp) forward it on their bridges. run() with one leader is
// arrive -> leader broadcasts -> release; start/test/wait and several leaders go
// through the node exchange (node_exchange.hpp).
//
// Why 3 with overlap: result k must stay readable until this rank's start(k+2).
// The root writes k+3 into slot k only after its wait(k+2), which completes only
// after every node rank arrived at start(k+2); a slice owner receives k+3 only
// after every node rank arrived at start(k+3). With 2 slots the root would write
// k+2 over k while a neighbour may still read it.
class HybridBcast final : public RingBcast {
 public:
  HybridBcast(const Topology& topo, std::int64_t capacity, std::size_t elem_size, CollectiveOptions options)
      : RingBcast(topo, capacity, elem_size, options, options.overlap ? 3 : 2),
        slot_bytes_((capacity * elem_size + 63) / 64 * 64),
        buffer_(topo, ring_.slots() * slot_bytes_),
        bridges_(topo, detail::effective_leaders(topo, options.leaders, capacity * elem_size)) {
    sync_ = NodeSync::create(options.sync, topo, &buffer_);
    exchange_ = std::make_unique<detail::NodeExchange>(topo, *sync_, bridges_, options.progress_thread);
    if (topo.is_leader()) std::memset(buffer_.data(), 0, buffer_.capacity());
    sync_->full();
  }
  void* buffer() override { return slot(ring_.phase()); }
  const void* result() const override { return slot(ring_.front()); }
  void run_checked(int root, std::int64_t count, const void* root_data) override {
    topo_.require_comm_alive("bcast");
    ring_.require_idle("run()");
    copy_in(root, count, root_data);
    if (slices_for(count) > 1) {
      exchange_->run(slice_broadcast(root, count));
      ring_.land();
      return;
    }
    if (topo_.num_nodes() == 1) {
      timed_sync(&NodeSync::full);
    } else {
      timed_sync(&NodeSync::arrive);
      detail::ProgressEngine::poke();  // what else flies posts what it can before this rank blocks in MPI
      if (topo_.is_leader())
        HYMPI_CHECK_MPI(MPI_Bcast(buffer(), detail::to_int_count(count, "bcast count"), type_.get(),
                                  topo_.node_of(root), topo_.bridge_comm()));
      timed_sync(&NodeSync::release);
    }
    ring_.land();
  }
  // Announces this rank's arrival; the slice owners post their bridge broadcasts
  // as soon as the node is there (at once if it already is).
  void start_checked(int root, std::int64_t count, const void* root_data) override {
    topo_.require_comm_alive("bcast");
    ring_.begin();
    copy_in(root, count, root_data);
    exchange_->start(slice_broadcast(root, count));
  }
  void wait() override {
    topo_.require_comm_alive("bcast wait()");
    if (ring_.completed()) return;
    ring_.require_in_flight();  // before any node sync: fail alone, not in a barrier
    exchange_->wait();
    ring_.end();
  }
  bool test() override {
    topo_.require_comm_alive("bcast test()");
    if (ring_.completed()) return true;
    ring_.require_in_flight("test()");
    if (!exchange_->test()) return false;
    ring_.end();
    return true;
  }
  std::size_t bytes_per_node() const override { return buffer_.capacity(); }

 private:
  std::byte* slot(int which) const { return buffer_.data() + which * slot_bytes_; }
  // The bridges are built for the capacity. With automatic leaders a call uses
  // only as many as its own message earns (detail::automatic_leaders): a small
  // message through a large object keeps the single-leader path and its cheaper
  // node synchronization. The count is the same on every rank, so is the choice.
  int slices_for(std::int64_t count) const {
    if (options_.leaders > 0) return bridges_.slices();
    return detail::automatic_leaders(static_cast<std::uint64_t>(count) * elem_size_, bridges_.slices());
  }
  // Slice s of the message in the written slot, broadcast on its bridge (owners
  // of slices beyond this call's count post nothing).
  detail::NodeExchange::Post slice_broadcast(int root, std::int64_t count) {
    std::byte* data = slot(ring_.phase());
    const int root_node = topo_.node_of(root), slices = slices_for(count);
    return [=](int s, MPI_Comm bridge, detail::Requests& requests) {
      if (s >= slices) return;
      const detail::SliceRange range = detail::slice_range(count, s, slices);
      HYMPI_CHECK_MPI(MPI_Ibcast(data + range.first * elem_size_, static_cast<int>(range.last - range.first),
                                 type_.get(), root_node, bridge, requests.add()));
    };
  }
  void copy_in(int root, std::int64_t count, const void* root_data) {
    if (root_data && topo_.rank() == root && count > 0) {
      std::memcpy(buffer(), root_data, count * elem_size_);
#ifdef HYMPI_SMPI_COSTS  // the simulator charges the copy into the node window (apps/smpi/glue/onnode_cost.cpp)
      hympi_smpi_charge_copy(count * elem_size_);
#endif
    }
  }
  void timed_sync(void (NodeSync::*step)()) {
    const double t0 = MPI_Wtime();
    ((*sync_).*step)();
    node_sync_seconds_ += MPI_Wtime() - t0;
  }

  std::size_t slot_bytes_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  detail::Bridges bridges_;
  std::unique_ptr<detail::NodeExchange> exchange_;  // last: a broadcast in flight completes first
};

// Bcast::create_fixed's object: a broadcast with its root and count bound at
// creation (as MPI_Bcast_init), so that it has the other collectives' request model.
class FixedBcast final : public PersistentCollective {
 public:
  FixedBcast(std::unique_ptr<RingBcast> impl, int root, std::int64_t count, bool is_root)
      : impl_(std::move(impl)), root_(root), count_(count), is_root_(is_root) {}
  void* slot() override { return is_root_ ? impl_->buffer() : nullptr; }
  const void* result() const override { return impl_->result(); }
  // Root and count were checked and agreed at creation: a call pays no range checks.
  void run() override { impl_->run_checked(root_, count_, nullptr); }
  void start() override { impl_->start_checked(root_, count_, nullptr); }
  bool test() override { return impl_->test(); }
  void wait() override { impl_->wait(); }
  std::size_t bytes_per_node() const override { return impl_->bytes_per_node(); }

 private:
  std::unique_ptr<RingBcast> impl_;
  int root_;
  std::int64_t count_;
  bool is_root_;
};

// Both creates' items: `agreement` holds the caller's checks and values (create_fixed's
// root and count, a C init's), joined by the options, the capacity and the element
// size. The same items on every path (flat or grouped), so the round's shape never
// depends on a value it agrees (groups 1 on one rank and 2 on another is an error
// on every rank, not two rounds of different lengths).
std::size_t add_ring_items(std::int64_t capacity, std::size_t elem_size, const CollectiveOptions& options,
                           detail::Agreement& agreement, const Topology& topo) {
  // Every size the ring needs (3 slots at most, each rounded up to 64 bytes) must fit size_t.
  const auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::size_t>::max() / 4 - 64);
  agreement.options(options);
  agreement.check([&] {
    topo.require_comm_alive("collective creation");
    require(capacity >= 0 && elem_size > 0,
            "bcast capacity must be >= 0 and element size > 0 (got capacity " + std::to_string(capacity) + ")");
    require(static_cast<std::uint64_t>(capacity) <= limit / elem_size,
            "bcast capacity " + std::to_string(capacity) + " x element size " + std::to_string(elem_size) +
                " bytes overflows size_t",
            ErrorCode::out_of_memory);
  });
  // One node copy serves ranks that may size their panels differently: the
  // window layout must be the same on every rank, so the largest capacity wins.
  const std::size_t capacity_at = agreement.largest("bcast capacity", capacity);
  agreement.same("bcast element size", static_cast<std::int64_t>(elem_size));
  return capacity_at;
}

// The ring of the agreed options (after the round).
std::unique_ptr<RingBcast> make_ring(const Topology& topo, std::int64_t capacity, std::size_t elem_size,
                                     const CollectiveOptions& options) {
  if (options.policy == Policy::pure) return std::make_unique<PureBcast>(topo, capacity, elem_size, options);
  return std::make_unique<HybridBcast>(topo, capacity, elem_size, options);
}

}  // namespace

std::unique_ptr<PersistentCollective> detail::create_fixed_bcast(const Topology& topo, int root, std::int64_t count,
                                                                 std::size_t elem_size,
                                                                 const CollectiveOptions& options,
                                                                 Agreement& agreement) {
  // Root and count agreed at creation: a mismatch is the same error on every rank
  // here, not a hang in a later start().
  agreement.check([&] {
    require(root >= 0 && root < topo.size(),
            "bcast root " + std::to_string(root) + " is outside [0, " + std::to_string(topo.size()) + ")");
    require(count >= 0, "bcast count must be >= 0, got " + std::to_string(count));
    detail::to_int_count(count, "bcast count");  // each call's MPI count, checked once here
  });
  agreement.same("bcast root", root);
  agreement.same("bcast count", count);
  const std::size_t capacity_at = add_ring_items(count, elem_size, options, agreement, topo);
  agreement.run(topo.comm());  // the one round: every rank then takes the same path
  if (options.groups != 1) {
    const auto plan = detail::grouped_plan(topo, options, count * static_cast<std::int64_t>(elem_size), root);
    if (!detail::is_flat(topo, options, plan)) return detail::make_grouped_bcast(topo, root, count, elem_size, options, plan);
  }
  auto impl = make_ring(topo, agreement.agreed(capacity_at), elem_size, options);
  return std::make_unique<FixedBcast>(std::move(impl), root, count, topo.rank() == root);
}

std::unique_ptr<Bcast> Bcast::create(const Topology& topo, std::int64_t capacity, std::size_t elem_size,
                                     CollectiveOptions options) {
  detail::Agreement agreement;
  agreement.check([&] {
    require(options.groups == 1, "bcast: groups = " + std::to_string(options.groups) +
                                     " needs the root and count fixed at creation (Bcast::create_fixed, hympi_bcast_init)");
  });
  const std::size_t capacity_at = add_ring_items(capacity, elem_size, options, agreement, topo);
  agreement.run(topo.comm());
  return make_ring(topo, agreement.agreed(capacity_at), elem_size, options);
}

std::unique_ptr<PersistentCollective> Bcast::create_fixed(const Topology& topo, int root, std::int64_t count,
                                                          std::size_t elem_size, CollectiveOptions options) {
  detail::Agreement agreement;
  return detail::create_fixed_bcast(topo, root, count, elem_size, options, agreement);
}

}  // namespace hympi
