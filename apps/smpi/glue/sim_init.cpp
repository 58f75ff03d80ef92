// The simulated MPI layer's MPI_Init / MPI_Init_thread (PMPI wrappers, SMPI builds only;
// entered through sim_entry_points.cpp or a preload):
// each rank records which host runs it, so the layer can tell a message's route
// (sim_state.hpp) without asking SimGrid's internals which actor a rank is.
#include <mpi.h>
#include <simgrid/host.h>

#include "sim_state.hpp"

namespace {
void register_self() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  hympi_sim::state::register_rank(rank, sg_host_self());
}
}  // namespace

extern "C" int hympi_sim_init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) register_self();
  return rc;
}

extern "C" int hympi_sim_init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) register_self();
  return rc;
}

// For a preloaded layer (an unprivatized program, sim_entry_points.cpp says why).
extern "C" int MPI_Init(int* argc, char*** argv) { return hympi_sim_init(argc, argv); }
extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return hympi_sim_init_thread(argc, argv, required, provided);
}
