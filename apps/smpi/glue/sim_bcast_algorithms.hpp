// The simulated MPI layer's broadcast algorithms (SMPI builds only), each made of
// hympi_sim point-to-point messages (sim_p2p.hpp), so every message is charged.
// MPI_Bcast (sim_bcast.cpp) picks one by the selection setting: the thesis' MPICH
// rule or BG/P's DCMF rule by communicator shape (dcmf_bcast.cpp).
#pragma once
#include <mpi.h>

namespace hympi_sim {

int bcast_binomial(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// van de Geijn: binomial scatter + ring allgather (ring steps merged S at a time when
// the coarsening setting asks for it).
int bcast_scatter_ring(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// binomial scatter + recursive-doubling allgather.
int bcast_scatter_rdb(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// BG/P's DCMF selection by the communicator's (x,y,z,t) shape, with its rectangle broadcast.
int bcast_dcmf(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);

}  // namespace hympi_sim
