// The floor line: MPI_Barrier on the node communicator. A hybrid collective
// synchronizes its node at least once, so it cannot beat this.
#include "operation.hpp"

namespace hympi::bench {

namespace {

// The barrier as a collective without data: nothing to write or read.
class NodeBarrier final : public PersistentCollective {
 public:
  explicit NodeBarrier(const Topology& topo) : topo_(topo) {}
  void* slot() override { return nullptr; }
  const void* result() const override { return nullptr; }
  void run() override { MPI_Barrier(topo_.node_comm()); }
  std::size_t bytes_per_node() const override { return 0; }

 private:
  const Topology& topo_;
};

class BarrierData final : public Data {
 public:
  explicit BarrierData(const Topology& topo) : barrier_(topo) {}
  PersistentCollective& bind(std::int64_t /*size*/) override { return barrier_; }
  std::size_t contribution_bytes() const override { return 0; }
  void fill(void* /*out*/, int /*iteration*/) const override {}
  std::int64_t errors(const void* /*result*/, int /*iteration*/) const override { return 0; }
  std::int64_t result_elements() const override { return 0; }
  bool checks_data() const override { return false; }

 private:
  NodeBarrier barrier_;
};

}  // namespace

std::unique_ptr<Data> make_node_barrier(const Topology& topo) {
  return std::make_unique<BarrierData>(topo);
}

}  // namespace hympi::bench
