// MPI_Win_sync under SMPI: a no-op there, a memory fence on a real machine. The core
// calls it around every node synchronization of a hybrid collective (NodeBuffer::
// sync_memory), so without a cost a hybrid collective on a one-rank node was exactly
// as fast as the pure one (Zhou Fig 8). This PMPI wrapper, linked into every SMPI
// binary (its definition preempts SimGrid's), charges the platform's hympi_fence_us
// (onnode_cost.cpp) first. Pure collectives call no MPI_Win_sync: the same rule
// charges them nothing. A node barrier of one rank is not charged: MPI_Barrier on one
// rank returns at once (3-4 ns measured here, probe/win_sync_cost.cpp).
#include <mpi.h>

extern "C" void hympi_smpi_charge_fence();  // onnode_cost.cpp

extern "C" int MPI_Win_sync(MPI_Win win) {
  hympi_smpi_charge_fence();
  return PMPI_Win_sync(win);
}
