// Allreduce: the reduction engine with every rank receiving the result.
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"
#include "reduction_engine.hpp"

namespace hympi {

namespace {

class EngineAllreduce final : public Allreduce {
 public:
  EngineAllreduce(const Topology& topo, const detail::ReductionArgs& args, const CollectiveOptions& options)
      : engine_(detail::ReductionEngine::create(topo, args, options)) {
    count_ = args.count;
    type_ = args.type;
    op_ = args.op;
    options_ = options;
    topology_owner_ = topo.keep_alive();
  }
  void* slot() override { return engine_->slot(); }
  void run() override { engine_->run(); }
  const void* result() const override { return engine_->result(); }
  std::size_t bytes_per_node() const override { return engine_->bytes_per_node(); }

 private:
  std::unique_ptr<detail::ReductionEngine> engine_;
};

}  // namespace

std::unique_ptr<Allreduce> Allreduce::create(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op,
                                             CollectiveOptions options) {
  const detail::ReductionArgs args =
      detail::check_reduction_args(topo, "allreduce", count, type, op, detail::kEveryRank, options);
  return std::make_unique<EngineAllreduce>(topo, args, options);
}

}  // namespace hympi
