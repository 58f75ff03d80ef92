// Reduce: the reduction engine; only the root's result() is non-null.
#include "hympi/reduce.hpp"

#include "hympi/topology.hpp"
#include "reduction_engine.hpp"

namespace hympi {

namespace {

class EngineReduce final : public Reduce {
 public:
  EngineReduce(const Topology& topo, const detail::ReductionArgs& args, const CollectiveOptions& options)
      : engine_(detail::ReductionEngine::create(topo, args, options)), is_root_(topo.rank() == args.root) {
    count_ = args.count;
    root_ = args.root;
    type_ = args.type;
    op_ = args.op;
    options_ = options;
    topology_owner_ = topo.keep_alive();
  }
  void* slot() override { return engine_->slot(); }
  void run() override { engine_->run(); }
  const void* result() const override { return is_root_ ? engine_->result() : nullptr; }
  std::size_t bytes_per_node() const override { return engine_->bytes_per_node(); }

 private:
  std::unique_ptr<detail::ReductionEngine> engine_;
  bool is_root_;
};

}  // namespace

std::unique_ptr<Reduce> Reduce::create(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                                       CollectiveOptions options) {
  const detail::ReductionArgs args =
      detail::check_reduction_args(topo, "reduce", count, type, op, root == detail::kEveryRank ? -1 : root, options);
  return std::make_unique<EngineReduce>(topo, args, options);
}

}  // namespace hympi
