// Allreduce and Reduce: thin faces over the one reduction engine.
#include "hympi/reduce.hpp"
#include "agreement.hpp"
#include "creates.hpp"
#include "hympi/topology.hpp"
#include "reduction/engine.hpp"

namespace hympi {

namespace {

// What the caller passed: count() and type() report it, even where the engine
// reduces a contiguous type's basic elements (args.count, args.type).
struct CallerUnits {
  std::int64_t count;
  MPI_Datatype type;
};

// The members both faces share, forwarded to the engine.
template <class Face>
class EngineFace : public Face {
 public:
  EngineFace(const Topology& topo, const detail::ReductionArgs& args, const CollectiveOptions& options,
             CallerUnits caller)
      : engine_(detail::ReductionEngine::create(topo, args, options)) {
    this->count_ = caller.count;
    this->type_ = caller.type;
    this->op_ = args.op;
    this->options_ = options;
    this->topology_owner_ = topo.keep_alive();
  }
  void* slot() override { return engine_->slot(); }
  void run() override { engine_->run(); }
  void start() override { engine_->start(); }
  bool test() override { return engine_->test(); }
  void wait() override { engine_->wait(); }
  std::size_t bytes_per_node() const override { return engine_->bytes_per_node(); }

 protected:
  std::unique_ptr<detail::ReductionEngine> engine_;
};

class EngineAllreduce final : public EngineFace<Allreduce> {
 public:
  using EngineFace::EngineFace;
  const void* result() const override { return engine_->result(); }
};

// Only the root's result() is non-null (its node holds the result).
class EngineReduce final : public EngineFace<Reduce> {
 public:
  EngineReduce(const Topology& topo, const detail::ReductionArgs& args, const CollectiveOptions& options,
               CallerUnits caller)
      : EngineFace(topo, args, options, caller), is_root_(topo.rank() == args.root) {
    root_ = args.root;
  }
  const void* result() const override { return is_root_ ? engine_->result() : nullptr; }

 private:
  bool is_root_;
};

}  // namespace

std::unique_ptr<Allreduce> detail::create_allreduce(const Topology& topo, std::int64_t count, MPI_Datatype type,
                                                   MPI_Op op, const CollectiveOptions& options, Agreement& agreement) {
  const auto args = check_reduction_args(topo, "allreduce", count, type, op, kEveryRank, options, agreement);
  return std::make_unique<EngineAllreduce>(topo, args, options, CallerUnits{count, type});
}

std::unique_ptr<Reduce> detail::create_reduce(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op,
                                              int root, const CollectiveOptions& options, Agreement& agreement) {
  // A caller's root equal to the engine's "every rank" marker is a bad root like any other.
  const auto args =
      check_reduction_args(topo, "reduce", count, type, op, root == kEveryRank ? -1 : root, options, agreement);
  return std::make_unique<EngineReduce>(topo, args, options, CallerUnits{count, type});
}

std::unique_ptr<Allreduce> Allreduce::create(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op,
                                             CollectiveOptions options) {
  detail::Agreement agreement;
  return detail::create_allreduce(topo, count, type, op, options, agreement);
}

std::unique_ptr<Reduce> Reduce::create(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                                       CollectiveOptions options) {
  detail::Agreement agreement;
  return detail::create_reduce(topo, count, type, op, root, options, agreement);
}

}  // namespace hympi
