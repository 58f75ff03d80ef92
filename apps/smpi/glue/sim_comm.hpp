// What the simulated MPI layer knows about a communicator (SMPI builds only): its ranks'
// world ranks (translated at its first use) and hosts (looked up on first use), in a table
// shared by every communicator of the same members for the rest of the run (sim_comm.cpp),
// and, cached on it as an MPI attribute freed with it, this rank's count of merged-ring
// broadcasts so far (their snapshot key, sim_state.hpp).
#pragma once
#include <mpi.h>
#include <simgrid/forward.h>

#include <cstdint>
#include <string>

namespace hympi_sim {

int world_rank_of(MPI_Comm comm, int rank);
sg_host_t host_of(MPI_Comm comm, int rank);
// A key naming this broadcast on every rank alike: the communicator's world ranks, the
// root and the number of merged-ring broadcasts on it before.
std::string next_bcast_key(MPI_Comm comm, int root);
// The calling rank's own attribute key for values deleted by `del` (created on first use).
// Per rank, not per process: SMPI may share one communicator object between ranks (the
// world), and the layer is a shared library, one copy for every rank.
int rank_keyval(MPI_Comm_delete_attr_function* del);

}  // namespace hympi_sim
