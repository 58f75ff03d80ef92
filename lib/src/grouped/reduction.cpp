// The grouped reductions. Order, chosen to move the fewest bytes: reduce inside
// every group to its leader (the core's reduction of the chosen policy: each rank's
// vector crosses the network once, into its group), then an MPI reduction among
// the G leaders (G vectors instead of p), then (allreduce) the core's broadcast
// inside every group. The other order (allreduce inside the groups, then among
// the leaders, then a broadcast) moves the vector to every rank twice; an
// allreduce among the leaders followed by nothing would need every rank to be a
// leader. A reduce's root leads its own group and gets the result of the outer
// MPI_Reduce; no broadcast.
#include <memory>
#include <utility>
#include <vector>

#include "grouped/grouped.hpp"
#include "grouped/steps.hpp"
#include "hympi/topology.hpp"

namespace hympi::detail {

namespace {

class GroupedReduction final : public ReductionEngine {
 public:
  GroupedReduction(const Topology& topo, const ReductionArgs& args, const CollectiveOptions& options,
                   const GroupPlan& plan)
      : topology_owner_(topo.keep_alive()),
        args_(args),
        every_rank_(args.root < 0),
        comms_(topo.comm(), plan, group_leaders(plan, every_rank_ ? -1 : args.root)),
        chain_(every_rank_ ? "grouped allreduce" : "grouped reduce", topo) {
    const bool hybrid = options.policy == Policy::hybrid;
    ReductionArgs inner = args;
    inner.root = comms_.leader_in_group();
    const CollectiveOptions in = inner_options(options);
    // A failure in one group (no room for its node copy) is every rank's error.
    checked_together(topo.comm(), [&] {
      const Topology& group = group_topology(topo, comms_.group(), hybrid);
      reduce_ = ReductionEngine::create(group, inner, in);
      if (every_rank_) bcast_ = Bcast::create_fixed(group, comms_.leader_in_group(), args.count, args.extent, in);
    });
    chain_.add(core_step(*reduce_));
    if (comms_.is_leader()) {
      const int outer_root = every_rank_ ? -1 : plan.group_of_rank[static_cast<std::size_t>(args.root)];
      if (!every_rank_ && topo.rank() == args.root) result_.resize(std::max<std::size_t>(args.bytes, 1));
      const MPI_Comm leaders = comms_.leaders();
      // The group's sum (the inner reduce's result on its leader) into the broadcast's
      // slot (allreduce) or the root's result (reduce), per int-sized chunk.
      auto each_chunk = [this, outer_root, leaders](bool blocking, Requests* requests) {
        const char* in_data = static_cast<const char*>(reduce_->result());
        char* out = every_rank_ ? static_cast<char*>(bcast_->slot()) : result_.empty() ? nullptr : result_.data();
        for_each_int_chunk(args_.count, [&](std::int64_t offset, int n) {
          const std::size_t at = static_cast<std::size_t>(offset) * args_.extent;
          char* to = out ? out + at : nullptr;
          if (every_rank_ && blocking)
            HYMPI_CHECK_MPI(MPI_Allreduce(in_data + at, to, n, args_.type, args_.op, leaders));
          else if (every_rank_)
            HYMPI_CHECK_MPI(MPI_Iallreduce(in_data + at, to, n, args_.type, args_.op, leaders, requests->add()));
          else if (blocking)
            HYMPI_CHECK_MPI(MPI_Reduce(in_data + at, to, n, args_.type, args_.op, outer_root, leaders));
          else
            HYMPI_CHECK_MPI(
                MPI_Ireduce(in_data + at, to, n, args_.type, args_.op, outer_root, leaders, requests->add()));
        });
      };
      chain_.add(mpi_step([each_chunk] { each_chunk(true, nullptr); },
                          [each_chunk](Requests& requests) { each_chunk(false, &requests); }, requests_));
    }
    if (bcast_) chain_.add(core_step(*bcast_));
  }
  void* slot() override { return reduce_->slot(); }
  const void* result() const override {
    if (every_rank_) return bcast_->result();
    return result_.empty() ? nullptr : result_.data();
  }
  void run() override { chain_.run(); }
  void start() override { chain_.start(); }
  bool test() override { return chain_.test(); }
  void wait() override { chain_.wait(); }
  std::size_t bytes_per_node() const override {
    return reduce_->bytes_per_node() + (bcast_ ? bcast_->bytes_per_node() : result_.size());
  }

 private:
  std::shared_ptr<const Topology> topology_owner_;
  ReductionArgs args_;
  bool every_rank_;
  GroupComms comms_;  // outlives the inner collectives (declared before them)
  std::unique_ptr<ReductionEngine> reduce_;
  std::unique_ptr<PersistentCollective> bcast_;
  std::vector<char> result_;  // the reduce's root
  Requests requests_;
  StepChain chain_;  // last: destroyed in flight, it completes every step before the rest goes
};

}  // namespace

std::unique_ptr<ReductionEngine> make_grouped_reduction(const Topology& topo, const ReductionArgs& args,
                                                        const CollectiveOptions& options, const GroupPlan& plan) {
  return std::make_unique<GroupedReduction>(topo, args, options, plan);
}

}  // namespace hympi::detail
