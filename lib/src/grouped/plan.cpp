// Which path a collective with options.groups takes: the effective G.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "grouped/grouped.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi {

namespace detail {

namespace {

bool by_nodes(const Topology& topo, const CollectiveOptions& options) {
  return options.policy == Policy::hybrid && !topo.is_flat();
}

// An MPI group, freed however the scope is left.
struct GroupGuard {
  MPI_Group group = MPI_GROUP_NULL;
  ~GroupGuard() {
    if (group != MPI_GROUP_NULL) MPI_Group_free(&group);
  }
};

// Rank i of the communicator is world rank i (local: the groups' translation). Only asked when
// a torus is set (the only term that places ranks); false on a freed communicator or after MPI.
bool world_block(const Topology& topo) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || !topo.comm_alive()) return false;
  int same = MPI_UNEQUAL;
  HYMPI_CHECK_MPI(MPI_Comm_compare(topo.comm(), MPI_COMM_WORLD, &same));
  if (same == MPI_IDENT || same == MPI_CONGRUENT) return true;
  GroupGuard mine, world;
  HYMPI_CHECK_MPI(MPI_Comm_group(topo.comm(), &mine.group));
  HYMPI_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world.group));
  std::vector<int> ranks(static_cast<std::size_t>(topo.size())), in_world(ranks.size());
  for (int i = 0; i < topo.size(); ++i) ranks[static_cast<std::size_t>(i)] = i;
  HYMPI_CHECK_MPI(MPI_Group_translate_ranks(mine.group, topo.size(), ranks.data(), world.group, in_world.data()));
  return in_world == ranks;
}

Placement placement(const Topology& topo, const CollectiveOptions& options, int root) {
  const bool nodes = by_nodes(topo, options);
  return Placement{nodes, !nodes && model_machine().torus.known() && world_block(topo), nodes ? 0 : root};
}

}  // namespace

int units(const Topology& topo, const CollectiveOptions& options) {
  return by_nodes(topo, options) ? topo.num_nodes() : topo.size();
}

GroupPlan grouped_plan(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes, int root) {
  const int requested = options.groups == 0
                            ? automatic_groups(units(topo, options), bytes, placement(topo, options, root))
                            : options.groups;
  return plan_groups(topo, std::max(requested, 1), by_nodes(topo, options));
}

bool is_flat(const Topology& topo, const CollectiveOptions& options, const GroupPlan& plan) {
  return plan.groups <= 1 || plan.groups >= units(topo, options);
}

CollectiveOptions inner_options(CollectiveOptions options) {
  options.groups = 1;
  return options;
}

}  // namespace detail

int effective_groups(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes) {
  return effective_groups(topo, options, bytes, 0);
}

double grouped_model_seconds(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes) {
  return grouped_model_seconds(topo, options, bytes, 0);
}

int effective_groups(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes, int root) {
  if (options.groups == 1) return 1;
  return detail::grouped_plan(topo, options, bytes, root).groups;
}

std::string grouped_model_machine() {
  const detail::ModelMachine m = detail::model_machine();
  char text[320];
  std::snprintf(text, sizeof text, "alpha=%.17g;beta=%.17g;bcast=%s;node_ranks=%d;shm_alpha=%.17g;shm_beta=%.17g;torus=", m.alpha,
                m.beta, detail::name(m.bcast), m.node_ranks, m.shm_alpha, m.shm_beta);
  std::string out = text;
  if (!m.torus.known()) return out + "none";
  return out + std::to_string(m.torus.dims[0]) + "x" + std::to_string(m.torus.dims[1]) + "x" +
         std::to_string(m.torus.dims[2]) + (m.torus.mesh ? ":mesh" : "");
}

double grouped_model_seconds(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes, int root) {
  const int g = effective_groups(topo, options, bytes, root);
  const int n = detail::units(topo, options);
  if (g <= 1 || g >= n) return 0;
  return detail::grouped_seconds(n, g, bytes, detail::model_machine(), detail::placement(topo, options, root));
}

}  // namespace hympi
