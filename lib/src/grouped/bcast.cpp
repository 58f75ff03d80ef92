// The grouped broadcast (MPI_Bcast_init's form: root and count fixed): the root
// leads its group; an MPI broadcast among the group leaders, then the core's
// broadcast of the chosen policy inside every group from its leader. Data start
// at one rank, so this is the only order (the thesis' hierarchical broadcast).
#include <memory>
#include <utility>

#include "grouped/grouped.hpp"
#include "grouped/steps.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"
#include "reduction/args.hpp"  // for_each_int_chunk

namespace hympi::detail {

namespace {

class GroupedBcast final : public PersistentCollective {
 public:
  GroupedBcast(const Topology& topo, int root, std::int64_t count, std::size_t elem_size,
               const CollectiveOptions& options, const GroupPlan& plan)
      : topology_owner_(topo.keep_alive()),
        comms_(topo.comm(), plan, group_leaders(plan, root)),
        is_root_(topo.rank() == root),
        count_(count),
        elem_size_(elem_size),
        type_(element_type(elem_size)),
        chain_("grouped bcast", topo) {
    // A failure in one group (no room for its node copy) is every rank's error.
    checked_together(topo.comm(), [&] {
      inner_ = Bcast::create_fixed(group_topology(topo, comms_.group(), options.policy == Policy::hybrid),
                                   comms_.leader_in_group(), count, elem_size, inner_options(options));
    });
    if (comms_.is_leader()) {
      const int outer_root = plan.group_of_rank[static_cast<std::size_t>(root)];
      const MPI_Comm leaders = comms_.leaders();
      // The leader's inner slot is the buffer its group's broadcast sends from.
      auto each_chunk = [this](auto&& call) {
        char* data = static_cast<char*>(inner_->slot());
        for_each_int_chunk(count_, [&](std::int64_t offset, int n) {
          call(data + static_cast<std::size_t>(offset) * elem_size_, n);
        });
      };
      chain_.add(mpi_step(
          [this, each_chunk, outer_root, leaders] { each_chunk([&](char* at, int n) { HYMPI_CHECK_MPI(MPI_Bcast(at, n, type_.get(), outer_root, leaders)); }); },
          [this, each_chunk, outer_root, leaders](Requests& requests) {
            each_chunk([&](char* at, int n) {
              HYMPI_CHECK_MPI(MPI_Ibcast(at, n, type_.get(), outer_root, leaders, requests.add()));
            });
          },
          requests_));
    }
    chain_.add(core_step(*inner_));
  }
  void* slot() override { return is_root_ ? inner_->slot() : nullptr; }
  const void* result() const override { return inner_->result(); }
  void run() override { chain_.run(); }
  void start() override { chain_.start(); }
  bool test() override { return chain_.test(); }
  void wait() override { chain_.wait(); }
  std::size_t bytes_per_node() const override { return inner_->bytes_per_node(); }

 private:
  std::shared_ptr<const Topology> topology_owner_;
  GroupComms comms_;  // outlives inner_ (declared before it)
  bool is_root_;
  std::int64_t count_;
  std::size_t elem_size_;
  OwnedType type_;
  std::unique_ptr<PersistentCollective> inner_;
  Requests requests_;
  StepChain chain_;  // last: destroyed in flight, it completes every step before the rest goes
};

}  // namespace

std::unique_ptr<PersistentCollective> make_grouped_bcast(const Topology& topo, int root, std::int64_t count,
                                                         std::size_t elem_size, const CollectiveOptions& options,
                                                         const GroupPlan& plan) {
  return std::make_unique<GroupedBcast>(topo, root, count, elem_size, options, plan);
}

}  // namespace hympi::detail
