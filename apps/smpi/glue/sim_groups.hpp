// One group per member list in the simulated MPI layer (sim_groups.cpp says why).
#pragma once
#include <mpi.h>

#include <vector>

namespace hympi_sim {

// MPI_COMM_WORLD's group (SMPI's own, never freed).
MPI_Group world_group();
// The group's members as world ranks, in group order.
std::vector<int> world_members(MPI_Group group);
// Whether `group` is one of the layer's shared groups (never freed).
bool is_shared_group(MPI_Group group);
// One process-wide copy of `ranks` for every rank that passes the same list (the BLACS
// glue's grid maps), kept for the rest of the run.
const std::vector<int>& shared_ranks(std::vector<int> ranks);

}  // namespace hympi_sim
