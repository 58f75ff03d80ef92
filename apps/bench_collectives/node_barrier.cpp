// The floor line: MPI_Barrier on the node communicator. A hybrid collective
// synchronizes its node at least once, so it cannot beat this.
#include "operation.hpp"

namespace hympi::bench {

namespace {

class NodeBarrier : public Operation {
 public:
  explicit NodeBarrier(const Topology& topo) : topo_(topo) {}
  void resize(std::int64_t /*size*/) override {}
  void prepare(int /*iteration*/) override {}
  void write() override {}
  void exchange() override { MPI_Barrier(topo_.node_comm()); }
  std::int64_t errors(int /*iteration*/) const override { return 0; }
  bool checks_data() const override { return false; }
  std::int64_t result_doubles() const override { return 0; }
  std::size_t bytes_per_node() const override { return 0; }

 private:
  const Topology& topo_;
};

}  // namespace

std::unique_ptr<Operation> make_node_barrier(const Topology& topo) {
  return std::make_unique<NodeBarrier>(topo);
}

}  // namespace hympi::bench
