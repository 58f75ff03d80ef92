// The grouped gather and scatter (rooted.hpp): the root leads its group. Gather:
// the core's gather of the chosen policy inside every group to its leader (each
// part crosses the network once, into its group), then an MPI_Gatherv of the G
// groups' blocks among the leaders to the root, which places them in rank order.
// Scatter, the mirror: the root packs its buffer in group order, an MPI_Scatterv
// gives every leader its group's block (straight into the inner scatter's slot),
// then the core's scatter inside every group. A group's block is its members' parts
// in ascending rank order (the inner collective's order), so groups that are not
// rank ranges (hybrid, round-robin placement) need no other rule.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "grouped/grouped.hpp"
#include "grouped/steps.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"

namespace hympi::detail {

namespace {

class GroupedRooted final : public PersistentCollective {
 public:
  GroupedRooted(RootedKind kind, const Topology& topo, int root, std::int64_t count, std::size_t elem_size,
                const CollectiveOptions& options, const GroupPlan& plan)
      : topology_owner_(topo.keep_alive()),
        gather_(kind == RootedKind::gather),
        is_root_(topo.rank() == root),
        part_(static_cast<std::size_t>(count) * elem_size),
        comms_(topo.comm(), plan, group_leaders(plan, root)),
        type_(element_type(elem_size)),
        chain_(std::string("grouped ") + rooted_shape(kind).name, topo) {
    // The leaders' counts are ints: the whole buffer must fit one (the same on every rank).
    to_int_count(count * topo.size(), gather_ ? "grouped gather total count" : "grouped scatter total count");
    // A failure in one group (no room for its node copy) is every rank's error.
    checked_together(topo.comm(), [&] {
      const Topology& group = group_topology(topo, comms_.group(), options.policy == Policy::hybrid);
      const CollectiveOptions in = inner_options(options);
      inner_ = gather_ ? Gather::create(group, comms_.leader_in_group(), count, elem_size, in)
                       : Scatter::create(group, comms_.leader_in_group(), count, elem_size, in);
    });
    // The root's whole buffer and its packed copy (the root leads its group), allocated
    // inside the checks: out of memory on the root alone is every rank's error.
    checked_together(topo.comm(), [&] {
      if (!is_root_) return;
      const std::size_t whole = std::max<std::size_t>(part_ * static_cast<std::size_t>(topo.size()), 1);
      (gather_ ? result_ : slot_).resize(whole);
      packed_.resize(whole);
    });
    if (gather_) chain_.add(core_step(*inner_));
    if (comms_.is_leader()) {
      const int outer_root = plan.group_of_rank[static_cast<std::size_t>(root)];
      const MPI_Comm leaders = comms_.leaders();
      const int c = static_cast<int>(count);
      std::int64_t at = 0;
      for (const auto& m : plan.members) {
        group_counts_.push_back(static_cast<int>(m.size()) * c);
        group_displs_.push_back(static_cast<int>(at));
        at += static_cast<std::int64_t>(m.size()) * c;
      }
      const int mine = group_counts_[static_cast<std::size_t>(plan.group_of_me)];
      if (is_root_) members_ = plan.members;
      const MPI_Datatype t = type_.get();
      if (gather_) {
        chain_.add(mpi_step(
            [this, leaders, outer_root, t, mine] {
              HYMPI_CHECK_MPI(MPI_Gatherv(inner_->result(), mine, t, packed(), group_counts_.data(),
                                          group_displs_.data(), t, outer_root, leaders));
            },
            [this, leaders, outer_root, t, mine](Requests& q) {
              HYMPI_CHECK_MPI(MPI_Igatherv(inner_->result(), mine, t, packed(), group_counts_.data(),
                                           group_displs_.data(), t, outer_root, leaders, q.add()));
            },
            requests_));
        if (is_root_) chain_.add(local_step([this] { move_parts(/*pack=*/false); }));
      } else {
        if (is_root_) chain_.add(local_step([this] { move_parts(/*pack=*/true); }));
        chain_.add(mpi_step(
            [this, leaders, outer_root, t, mine] {
              HYMPI_CHECK_MPI(MPI_Scatterv(packed(), group_counts_.data(), group_displs_.data(), t, inner_->slot(),
                                           mine, t, outer_root, leaders));
            },
            [this, leaders, outer_root, t, mine](Requests& q) {
              HYMPI_CHECK_MPI(MPI_Iscatterv(packed(), group_counts_.data(), group_displs_.data(), t, inner_->slot(),
                                            mine, t, outer_root, leaders, q.add()));
            },
            requests_));
      }
    }
    if (!gather_) chain_.add(core_step(*inner_));
  }
  void* slot() override { return gather_ ? inner_->slot() : is_root_ ? slot_.data() : nullptr; }
  const void* result() const override {
    if (!gather_) return inner_->result();
    return is_root_ ? result_.data() : nullptr;
  }
  void run() override { chain_.run(); }
  void start() override { chain_.start(); }
  bool test() override { return chain_.test(); }
  void wait() override { chain_.wait(); }
  std::size_t bytes_per_node() const override {
    return inner_->bytes_per_node() + slot_.size() + result_.size() + packed_.size();
  }

 private:
  char* packed() { return packed_.empty() ? nullptr : packed_.data(); }
  // The root's buffer in rank order (scatter: its slot; gather: its result) and the
  // packed group order of the leaders' exchange (group g's members, ascending).
  void move_parts(bool pack) {
    char* placed = gather_ ? result_.data() : slot_.data();
    std::size_t at = 0;
    for (const auto& m : members_)
      for (int r : m) {
        char* where = placed + static_cast<std::size_t>(r) * part_;
        if (part_ > 0) {
          if (pack)
            std::memcpy(packed_.data() + at, where, part_);
          else
            std::memcpy(where, packed_.data() + at, part_);
        }
        at += part_;
      }
  }

  std::shared_ptr<const Topology> topology_owner_;
  bool gather_, is_root_;
  std::size_t part_;
  GroupComms comms_;  // outlives inner_ (declared before it)
  OwnedType type_;
  std::unique_ptr<PersistentCollective> inner_;
  std::vector<std::vector<int>> members_;       // the root: every group's ranks
  std::vector<int> group_counts_, group_displs_;  // leaders: per group, elements (packed order)
  std::vector<char> slot_, result_, packed_;      // the root's
  Requests requests_;
  StepChain chain_;  // last: destroyed in flight, it completes every step before the rest goes
};

}  // namespace

std::unique_ptr<PersistentCollective> make_grouped_rooted(RootedKind kind, const Topology& topo, int root,
                                                          std::int64_t count, std::size_t elem_size,
                                                          const CollectiveOptions& options, const GroupPlan& plan) {
  return std::make_unique<GroupedRooted>(kind, topo, root, count, elem_size, options, plan);
}

}  // namespace hympi::detail
