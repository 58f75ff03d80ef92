#include "grouped/groups.hpp"

#include <algorithm>

#include "comm_from_ranks.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi::detail {

namespace {

// Tags of comm_from_ranks: the group and leader communicators overlap.
constexpr int kGroupTag = 0x4701, kLeadersTag = 0x4702;

void free_comm(MPI_Comm& comm) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm);
  comm = MPI_COMM_NULL;
}

}  // namespace

GroupPlan plan_groups(const Topology& topo, int requested, bool by_nodes) {
  require(requested >= 1, "groups must be >= 1, got " + std::to_string(requested));
  const int p = topo.size();
  GroupPlan plan;
  plan.group_of_rank.assign(static_cast<std::size_t>(p), 0);
  if (!by_nodes || topo.is_flat()) {
    plan.groups = std::min(requested, p);
    for (int r = 0; r < p; ++r) plan.group_of_rank[static_cast<std::size_t>(r)] = group_of(r, p, plan.groups);
  } else {
    const auto& map = topo.map();
    const int g_max = std::min(requested, map.num_nodes);
    // Each node by the position of its first rank in node-sorted order; groups renumbered densely.
    std::int64_t offset = 0;
    int last = -1, dense = -1;
    for (int n = 0; n < map.num_nodes; ++n) {
      const int g = group_of(offset, p, g_max);
      if (g != last) ++dense, last = g;
      for (int r : map.ranks_of_node[static_cast<std::size_t>(n)]) plan.group_of_rank[static_cast<std::size_t>(r)] = dense;
      offset += static_cast<std::int64_t>(map.ranks_of_node[static_cast<std::size_t>(n)].size());
    }
    plan.groups = dense + 1;
  }
  plan.members.assign(static_cast<std::size_t>(plan.groups), {});
  for (int r = 0; r < p; ++r) plan.members[static_cast<std::size_t>(plan.group_of_rank[static_cast<std::size_t>(r)])].push_back(r);
  for (const auto& m : plan.members) plan.contiguous = plan.contiguous && m.back() - m.front() + 1 == static_cast<int>(m.size());
  // Groups in rank order too (group g's ranks before group g + 1's): true for block placement.
  for (int g = 1; g < plan.groups && plan.contiguous; ++g)
    plan.contiguous = plan.members[static_cast<std::size_t>(g)].front() > plan.members[static_cast<std::size_t>(g - 1)].back();
  plan.group_of_me = plan.group_of_rank[static_cast<std::size_t>(topo.rank())];
  return plan;
}

std::vector<int> group_leaders(const GroupPlan& plan, int root) {
  std::vector<int> leaders;
  leaders.reserve(plan.members.size());
  for (const auto& m : plan.members) leaders.push_back(m.front());
  if (root >= 0) leaders[static_cast<std::size_t>(plan.group_of_rank[static_cast<std::size_t>(root)])] = root;
  return leaders;
}

GroupComms::GroupComms(MPI_Comm comm, const GroupPlan& plan, std::vector<int> leaders) : leaders_(std::move(leaders)) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  const auto& mine = plan.members[static_cast<std::size_t>(plan.group_of_me)];
  const int leader = leaders_[static_cast<std::size_t>(plan.group_of_me)];
  leader_in_group_ = static_cast<int>(std::find(mine.begin(), mine.end(), leader) - mine.begin());
  group_ = comm_from_ranks(comm, mine, kGroupTag);
  try {
    if (rank == leader) leaders_comm_ = comm_from_ranks(comm, leaders_, kLeadersTag);
  } catch (...) {
    free_comm(group_);
    throw;
  }
}

GroupComms::~GroupComms() {
  free_comm(leaders_comm_);
  free_comm(group_);
}

}  // namespace hympi::detail

namespace hympi::detail {

const Topology& group_topology(const Topology& topo, MPI_Comm group, bool hybrid) {
  if (!hybrid || topo.is_flat()) return Topology::flat(group);
  return Topology::of(group, topo.layout());
}

}  // namespace hympi::detail
