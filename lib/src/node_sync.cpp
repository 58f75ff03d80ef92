#include "hympi/node_sync.hpp"

#include <sched.h>

#include <cstring>

#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/topology.hpp"
#include "progress.hpp"
#include "requests.hpp"

namespace hympi {

namespace {

// MPI_Barrier on the node communicator, with MPI_Win_sync on both sides so the
// barrier also orders memory (a barrier alone orders processes only). Each
// object barriers on its own duplicate: nonblocking collectives of several
// objects in flight at once reach their MPI_Ibarriers in different orders on
// different ranks, and on one shared communicator barrier n of one rank would
// then pair with another object's barrier n of its neighbour.
class BarrierSync final : public NodeSync {
 public:
  BarrierSync(const Topology& topo, const NodeBuffer* data) : data_(data) {
    HYMPI_CHECK_MPI(MPI_Comm_dup(topo.node_comm(), &node_));
  }
  ~BarrierSync() override {  // a pending MPI_Ibarrier still completes (barrier_, MPI_Comm_free's rules)
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&node_);
  }
  void arrive() override { full(); }
  void release() override { full(); }
  void full() override {
    if (data_) data_->sync_memory();
    HYMPI_CHECK_MPI(MPI_Barrier(node_));
    if (data_) data_->sync_memory();
  }
  void start_full() override {
    if (data_) data_->sync_memory();
    HYMPI_CHECK_MPI(MPI_Ibarrier(node_, barrier_.add()));
  }
  bool test_full() override {
    if (!barrier_.test()) return false;
    if (data_) data_->sync_memory();
    return true;
  }
  SyncKind kind() const override { return SyncKind::barrier; }

 private:
  MPI_Comm node_ = MPI_COMM_NULL;
  const NodeBuffer* data_;
  detail::Requests barrier_;
};

// Epoch counters in shared memory, one cache line each: line 0 is the leader's
// release counter, line 1 + i is node rank i's arrival counter. Counters only
// grow, so a fast rank that is already one step ahead never confuses a slow one.
class FlagSync final : public NodeSync {
 public:
  static constexpr std::size_t kLine = 64;

  FlagSync(const Topology& topo, const NodeBuffer* data)
      : topo_(topo),
        flags_(topo, kLine * (1 + static_cast<std::size_t>(topo.node_size()))),
        data_(data),
        spins_before_yield_(count_spins_before_yield(topo)) {
    if (topo.is_leader()) std::memset(flags_.data(), 0, flags_.capacity());
    flags_.sync_memory();
    HYMPI_CHECK_MPI(MPI_Barrier(topo.node_comm()));
    flags_.sync_memory();
  }

  void arrive() override {
    publish();
    if (topo_.is_leader()) wait_all();
    acquire();
  }
  void release() override {
    publish_data();
    if (topo_.is_leader())
      __atomic_store_n(counter(0), epoch_, __ATOMIC_RELEASE);
    else
      wait_for(counter(0), epoch_);
    acquire();
  }
  void full() override {
    publish();
    wait_all();
    acquire();
  }
  void start_full() override { publish(); }
  bool test_full() override {
    flags_.sync_memory();
    for (int i = 0; i < topo_.node_size(); ++i)
      if (__atomic_load_n(counter(1 + i), __ATOMIC_ACQUIRE) < epoch_) return false;
    acquire();
    return true;
  }
  int spins_before_yield() const override { return spins_before_yield_; }
  SyncKind kind() const override { return SyncKind::flags; }

 private:
  std::uint64_t* counter(int line) const { return reinterpret_cast<std::uint64_t*>(flags_.data() + kLine * line); }

  void publish_data() {
    if (data_) data_->sync_memory();
  }
  void publish() {
    publish_data();
    ++epoch_;
    __atomic_store_n(counter(1 + topo_.node_rank()), epoch_, __ATOMIC_RELEASE);
    flags_.sync_memory();
  }
  void acquire() {
    flags_.sync_memory();
    if (data_) data_->sync_memory();
  }
  void wait_all() const {
    for (int i = 0; i < topo_.node_size(); ++i) wait_for(counter(1 + i), epoch_);
  }
  void wait_for(const std::uint64_t* flag, std::uint64_t epoch) const {
    // Spin before yielding: a sched_yield syscall costs more than a node barrier.
    // When the node has more ranks than cores, the awaited rank may need our core: yield early.
    // After that every step drives MPI progress (progress.hpp): the awaited rank may be
    // waiting for this rank's MPI traffic, ours or the application's.
    for (int spins = 0; __atomic_load_n(flag, __ATOMIC_ACQUIRE) < epoch;)
      if (spins < spins_before_yield_)
        ++spins;  // saturates: no overflow however long the wait
      else
        detail::progress_then_idle(topo_.node_comm());
  }
  // Collective over the node. Cores = the union of the node ranks' affinity masks:
  // a rank bound to one core still has its neighbours on other cores.
  static int count_spins_before_yield(const Topology& topo) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) CPU_SET(0, &cpus);
    HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &cpus, sizeof cpus, MPI_BYTE, MPI_BOR, topo.node_comm()));
    return topo.node_size() > CPU_COUNT(&cpus) ? 64 : 20000;
  }

  const Topology& topo_;
  NodeBuffer flags_;
  const NodeBuffer* data_;
  int spins_before_yield_;
  std::uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<NodeSync> NodeSync::create(SyncKind kind, const Topology& topo, const NodeBuffer* data) {
  if (kind == SyncKind::barrier) return std::make_unique<BarrierSync>(topo, data);
  return std::make_unique<FlagSync>(topo, data);
}

}  // namespace hympi
