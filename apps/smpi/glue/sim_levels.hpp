// Per-level algorithms of the grouped collectives (sim_levels.cpp says how levels are told apart).
#pragma once
#include <mpi.h>

namespace hympi_sim {

// When the run names a SimGrid bcast algorithm for comm's level (HYMPI_SIM_BCAST_BETWEEN /
// _INSIDE), runs it, stores its return code in *rc and returns true; else returns false.
bool level_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, int* rc);

}  // namespace hympi_sim
