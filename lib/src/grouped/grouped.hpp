// Private: the grouped collectives (options.groups, README "Grouped collectives").
// Each is the core's own collectives composed over the communicators of
// grouped/groups.hpp: inner ones (any policy, over the group's topology: under
// the hybrid policy the group's node leaders are its bridge and the node copy
// stays one per node) and an outer MPI collective among the group leaders.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "count_plan.hpp"
#include "grouped/groups.hpp"
#include "grouped/torus_terms.hpp"
#include "hympi/collectives.hpp"
#include "reduction/engine.hpp"
#include "rooted.hpp"

namespace hympi::detail {

// The plan of a collective moving `bytes` per call: nullopt-like (groups == 1 or
// every unit its own group) means the flat path.
// root: the broadcast's or reduction's root (0 for the rootless ones), which leads its group.
GroupPlan grouped_plan(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes, int root = 0);
bool is_flat(const Topology& topo, const CollectiveOptions& options, const GroupPlan& plan);
// What groups are made of: ranks, or nodes (hybrid policy on a node-aware topology).
int units(const Topology& topo, const CollectiveOptions& options);

// Where a collective's units are, for the closed form: units_are_nodes (the hybrid policy's
// units, never charged as on-node, no torus), world_block (rank i of the communicator is
// world rank i: the torus terms apply), root (leads its group).
struct Placement {
  bool units_are_nodes = false;
  bool world_block = true;
  int root = 0;
};
// The automatic G (options.groups = 0): the closed form of grouped/auto_groups.cpp.
int automatic_groups(int units, std::int64_t bytes, const Placement& where = {});
// The machine of the closed form: HYMPI_MODEL_ALPHA, HYMPI_MODEL_BETA (default BG/P's)
// and HYMPI_MODEL_BCAST, the rule of its MPI_Bcast (mpich, the default, or dcmf:
// BG/P's own; any other value is an invalid-argument error).
enum class BcastRule { mpich, dcmf };
const char* name(BcastRule rule);
// HYMPI_MODEL_NODE_RANKS (ranks per node, default 1: no node level), HYMPI_MODEL_SHM_ALPHA and
// HYMPI_MODEL_SHM_BETA (on-node; default the off-node values), HYMPI_MODEL_TORUS (the nodes'
// torus, "XxYxZ" or "XxYxZ:mesh", block placement; default none: no link sharing, no shapes).
// Each strict: a set value that does not parse whole throws (invalid_argument), never a default.
struct ModelMachine {
  double alpha = 0, beta = 0;
  BcastRule bcast = BcastRule::mpich;
  int node_ranks = 1;
  double shm_alpha = 0, shm_beta = 0;
  TorusShape torus;
};
ModelMachine model_machine();
// The closed form's seconds for G groups of `units` (the model's prediction; G = 1 or
// G >= units: the flat broadcast on the whole communicator).
double grouped_seconds(int units, int groups, std::int64_t bytes, const ModelMachine& machine,
                       const Placement& where = {});

// The options of the inner collectives (groups = 1).
CollectiveOptions inner_options(CollectiveOptions options);

// Arguments already checked and agreed over topo.comm() by the caller.
std::unique_ptr<PersistentCollective> make_grouped_bcast(const Topology& topo, int root, std::int64_t count,
                                                         std::size_t elem_size, const CollectiveOptions& options,
                                                         const GroupPlan& plan);
std::unique_ptr<ReductionEngine> make_grouped_reduction(const Topology& topo, const ReductionArgs& args,
                                                        const CollectiveOptions& options, const GroupPlan& plan);
// Gather and scatter (rooted.hpp): the root leads its group.
std::unique_ptr<PersistentCollective> make_grouped_rooted(RootedKind kind, const Topology& topo, int root,
                                                          std::int64_t count, std::size_t elem_size,
                                                          const CollectiveOptions& options, const GroupPlan& plan);
std::unique_ptr<Allgatherv> make_grouped_allgatherv(const Topology& topo, std::vector<std::int64_t> counts,
                                                    std::size_t elem_size, const CollectiveOptions& options);

}  // namespace hympi::detail
