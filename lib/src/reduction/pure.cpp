// Policy pure: MPI_Allreduce / MPI_Reduce between private send and result buffers
// (apart, so writing the next contribution never touches the result being read).
#include <algorithm>
#include <string>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "grouped/grouped.hpp"
#include "page_buffer.hpp"
#include "reduction/engine.hpp"
#include "requests.hpp"

namespace hympi::detail {

namespace {

class PureReduction final : public ReductionEngine {
 public:
  PureReduction(const Topology& topo, const ReductionArgs& args)
      : topo_(topo),
        args_(args),
        what_(args.root < 0 ? "allreduce" : "reduce"),
        whole_(args.count <= kChunk),
        send_(args.bytes),
        result_(args.bytes) {}
  void* slot() override { return send_.data(); }
  const void* result() const override { return result_.data(); }
  std::size_t bytes_per_node() const override { return 2 * args_.bytes * static_cast<std::size_t>(topo_.node_size()); }
  // What is known at creation is decided there (which call, one chunk or
  // several): a call pays a flag for the communicator, one for the idle guard.
  void run() override {
    topo_.require_comm_alive(what_);
    require_idle(in_flight_, what_, "run()");
    if (whole_) return reduce_chunk(0, static_cast<int>(args_.count));
    for_each_int_chunk(args_.count, [&](std::int64_t offset, int n) { reduce_chunk(offset, n); });
  }
  // MPI_Iallreduce / MPI_Ireduce per int-sized chunk.
  void start() override {
    topo_.require_comm_alive(what_);
    require_idle(in_flight_, what_, "start()");
    in_flight_ = true;
    for_each_int_chunk(args_.count, [&](std::int64_t offset, int n) {
      const std::size_t at = static_cast<std::size_t>(offset) * args_.extent;
      if (args_.root < 0)
        HYMPI_CHECK_MPI(MPI_Iallreduce(send_.data() + at, result_.data() + at, n, args_.type, args_.op, topo_.comm(),
                                       requests_.add()));
      else
        HYMPI_CHECK_MPI(MPI_Ireduce(send_.data() + at, result_.data() + at, n, args_.type, args_.op, args_.root,
                                    topo_.comm(), requests_.add()));
    });
  }
  bool test() override {
    if (!requests_.test()) return false;
    in_flight_ = false;
    return true;
  }
  void wait() override {
    requests_.wait();
    in_flight_ = false;
  }

 private:
  void reduce_chunk(std::int64_t offset, int n) {
    const std::size_t at = static_cast<std::size_t>(offset) * args_.extent;
    if (args_.root < 0)
      HYMPI_CHECK_MPI(MPI_Allreduce(send_.data() + at, result_.data() + at, n, args_.type, args_.op, topo_.comm()));
    else
      HYMPI_CHECK_MPI(
          MPI_Reduce(send_.data() + at, result_.data() + at, n, args_.type, args_.op, args_.root, topo_.comm()));
  }

  const Topology& topo_;
  ReductionArgs args_;
  const char* what_;  // "allreduce" or "reduce", for messages
  bool whole_;        // one MPI call (count fits an int)
  PageBuffer send_, result_;  // page-aligned, as a user's large buffers (page_buffer.hpp)
  bool in_flight_ = false;
  Requests requests_;  // last: destroyed in flight, it completes before the buffers go
};

}  // namespace

std::unique_ptr<ReductionEngine> make_pure_reduction(const Topology& topo, const ReductionArgs& args) {
  return std::make_unique<PureReduction>(topo, args);
}

std::unique_ptr<ReductionEngine> ReductionEngine::create(const Topology& topo, const ReductionArgs& args,
                                                         const CollectiveOptions& options) {
  if (options.groups != 1) {  // agreed (options table); never with deterministic (refused)
    const auto plan = grouped_plan(topo, options, static_cast<std::int64_t>(args.bytes), std::max(args.root, 0));
    if (!is_flat(topo, options, plan)) return make_grouped_reduction(topo, args, options, plan);
  }
  if (options.deterministic) return make_ordered_reduction(topo, args, options);
  if (options.policy == Policy::pure) return make_pure_reduction(topo, args);
  return make_hybrid_reduction(topo, args, options);
}

}  // namespace hympi::detail
