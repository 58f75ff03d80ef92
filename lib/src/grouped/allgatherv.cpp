// The grouped allgather(v). Order, chosen to move the fewest bytes: gather every
// group's parts to its leader (MPI_Gatherv, each part crosses the network once,
// into its place in the leader's result), an allgatherv of the G groups' blocks
// among the leaders, then the core's broadcast of the whole result inside every
// group (under the hybrid policy one node copy per node). Starting with an
// allgather inside the groups instead gives every rank its group's parts twice.
// Groups that are not rank ranges (hybrid, round-robin placement): the leaders
// exchange their groups' parts packed in group order and place them after.
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "grouped/grouped.hpp"
#include "grouped/steps.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"

namespace hympi::detail {

namespace {


// Everything one set of counts fixes: rebuilt whole by set_counts (strong guarantee).
struct Exchange {
  CountPlan counts;
  GroupPlan plan;
  std::unique_ptr<GroupComms> comms;
  std::unique_ptr<PersistentCollective> bcast;  // the whole result, from the leader, in the group
  std::vector<char> own;                        // a non-leader's slot
  std::vector<int> gather_counts, gather_displs;  // leader: per group member, elements
  std::vector<int> group_counts, group_displs;    // leaders: per group, elements (packed order if not contiguous)
  std::vector<char> packed;                       // leaders, groups not rank ranges
};

class GroupedAllgatherv final : public Allgatherv {
 public:
  GroupedAllgatherv(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                    const CollectiveOptions& options)
      : topo_(topo), type_(element_type(elem_size)), chain_("grouped allgatherv", topo) {
    elem_size_ = elem_size;
    options_ = options;
    topology_owner_ = topo.keep_alive();
    set_counts(std::move(counts));
  }
  void* slot() override {
    auto& x = *x_;
    if (!x.comms->is_leader()) return x.own.data();
    return static_cast<char*>(x.bcast->slot()) + static_cast<std::size_t>(x.counts.displs[me()]) * elem_size_;
  }
  const void* result() const override { return x_->bcast->result(); }
  void run() override { chain_.run(); }
  void start() override { chain_.start(); }
  bool test() override { return chain_.test(); }
  void wait() override { chain_.wait(); }
  std::size_t bytes_per_node() const override { return x_->bcast->bytes_per_node(); }

  void set_counts(std::vector<std::int64_t> counts) override {
    auto x = std::make_unique<Exchange>();
    x->counts = plan_counts(topo_, std::move(counts), elem_size_, /*agreed_counts=*/false, [&](const CountPlan& p) {
      to_int_count(p.total, "grouped allgatherv total count");
    });
    x->plan = grouped_plan(topo_, options_, static_cast<std::int64_t>(x->counts.bytes));
    x->comms = std::make_unique<GroupComms>(topo_.comm(), x->plan, group_leaders(x->plan));
    // A failure in one group (no room for its node copy) is every rank's error.
    checked_together(topo_.comm(), [&] {
      x->bcast = Bcast::create_fixed(group_topology(topo_, x->comms->group(), options_.policy == Policy::hybrid),
                                     x->comms->leader_in_group(), x->counts.total, elem_size_, inner_options(options_));
    });
    const auto& members = x->plan.members[static_cast<std::size_t>(x->plan.group_of_me)];
    const auto& c = x->counts;
    if (!x->comms->is_leader()) {
      x->own.resize(std::max<std::size_t>(static_cast<std::size_t>(c.counts[me()]) * elem_size_, 1));
    } else {
      for (int r : members) {
        x->gather_counts.push_back(static_cast<int>(c.counts[static_cast<std::size_t>(r)]));
        x->gather_displs.push_back(static_cast<int>(c.displs[static_cast<std::size_t>(r)]));
      }
      std::int64_t packed = 0;
      for (const auto& m : x->plan.members) {
        std::int64_t n = 0;
        for (int r : m) n += c.counts[static_cast<std::size_t>(r)];
        x->group_counts.push_back(static_cast<int>(n));
        x->group_displs.push_back(static_cast<int>(x->plan.contiguous ? c.displs[static_cast<std::size_t>(m.front())]
                                                                      : packed));
        packed += n;
      }
      if (!x->plan.contiguous) x->packed.resize(std::max<std::size_t>(c.bytes, 1));
    }
    chain_.replace(build_steps(*x));
    counts_ = x->counts.counts;
    displs_ = x->counts.displs;
    x_ = std::move(x);
  }

 private:
  std::size_t me() const { return static_cast<std::size_t>(topo_.rank()); }

  std::vector<Step> build_steps(Exchange& x) {
    std::vector<Step> chain;
    const MPI_Comm group = x.comms->group();
    const int leader = x.comms->leader_in_group();
    const MPI_Datatype type = type_.get();
    const int mine = static_cast<int>(x.counts.counts[me()]);
    if (!x.comms->is_leader()) {
      chain.push_back(mpi_step(
          [&x, group, leader, type, mine] {
            HYMPI_CHECK_MPI(MPI_Gatherv(x.own.data(), mine, type, nullptr, nullptr, nullptr, type, leader, group));
          },
          [&x, group, leader, type, mine](Requests& requests) {
            HYMPI_CHECK_MPI(MPI_Igatherv(x.own.data(), mine, type, nullptr, nullptr, nullptr, type, leader, group,
                                         requests.add()));
          },
          requests_));
      chain.push_back(core_step(*x.bcast));
      return chain;
    }
    auto result = [&x] { return static_cast<char*>(x.bcast->slot()); };
    chain.push_back(mpi_step(
        [&x, group, leader, type, result] {
          HYMPI_CHECK_MPI(MPI_Gatherv(MPI_IN_PLACE, 0, type, result(), x.gather_counts.data(), x.gather_displs.data(),
                                      type, leader, group));
        },
        [&x, group, leader, type, result](Requests& requests) {
          HYMPI_CHECK_MPI(MPI_Igatherv(MPI_IN_PLACE, 0, type, result(), x.gather_counts.data(),
                                       x.gather_displs.data(), type, leader, group, requests.add()));
        },
        requests_));
    const MPI_Comm leaders = x.comms->leaders();
    const std::size_t elem = elem_size_;
    // Each member's part between its place in the result and the packed group order.
    auto move_parts = [&x, elem, result](bool pack, bool mine_only) {
      std::size_t at = 0;
      for (int g = 0; g < x.plan.groups; ++g)
        for (int r : x.plan.members[static_cast<std::size_t>(g)]) {
          const std::size_t bytes = static_cast<std::size_t>(x.counts.counts[static_cast<std::size_t>(r)]) * elem;
          const bool ours = g == x.plan.group_of_me;
          if (ours == mine_only && bytes > 0) {
            char* placed = result() + static_cast<std::size_t>(x.counts.displs[static_cast<std::size_t>(r)]) * elem;
            if (pack)
              std::memcpy(x.packed.data() + at, placed, bytes);
            else
              std::memcpy(placed, x.packed.data() + at, bytes);
          }
          at += bytes;
        }
    };
    char* const packed = x.packed.empty() ? nullptr : x.packed.data();
    if (!x.plan.contiguous) chain.push_back(local_step([move_parts] { move_parts(true, true); }));
    auto target = [&x, result, packed] { return x.plan.contiguous ? result() : packed; };
    chain.push_back(mpi_step(
        [&x, leaders, type, target] {
          HYMPI_CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, type, target(), x.group_counts.data(),
                                         x.group_displs.data(), type, leaders));
        },
        [&x, leaders, type, target](Requests& requests) {
          HYMPI_CHECK_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, type, target(), x.group_counts.data(),
                                          x.group_displs.data(), type, leaders, requests.add()));
        },
        requests_));
    if (!x.plan.contiguous) chain.push_back(local_step([move_parts] { move_parts(false, false); }));
    chain.push_back(core_step(*x.bcast));
    return chain;
  }

  const Topology& topo_;
  OwnedType type_;
  std::unique_ptr<Exchange> x_;
  Requests requests_;
  StepChain chain_;  // last: destroyed in flight, it completes every step before the rest goes
};

}  // namespace

std::unique_ptr<Allgatherv> make_grouped_allgatherv(const Topology& topo, std::vector<std::int64_t> counts,
                                                    std::size_t elem_size, const CollectiveOptions& options) {
  return std::make_unique<GroupedAllgatherv>(topo, std::move(counts), elem_size, options);
}

}  // namespace hympi::detail
