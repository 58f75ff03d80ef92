// The simulated MPI layer's broadcast algorithms (SMPI builds only), each made of
// hympi_sim point-to-point messages (sim_p2p.hpp), so every message is charged.
// MPI_Bcast (sim_bcast.cpp) picks one by the selection setting: the thesis' MPICH
// rule or BG/P's DCMF rule by communicator shape (dcmf_bcast.cpp).
// Any datatype: a contiguous one is broadcast in place, another packed at the root and
// unpacked elsewhere; above INT_MAX bytes SMPI's own broadcast is used.
#pragma once
#include <mpi.h>

namespace hympi_sim {

int bcast_binomial(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// van de Geijn: binomial scatter + ring allgather (ring steps merged S at a time when
// the coarsening setting asks for it).
int bcast_scatter_ring(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// binomial scatter + recursive-doubling allgather (a size that is not a power of two:
// bcast_scatter_ring).
int bcast_scatter_rdb(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// Open MPI's chain broadcast (coll_tuned_bcast_algorithm 2; 1 = its pipeline, a chain of fanout 1),
// which SimGrid 3.32 does not have: the non-root ranks in `fanout` chains of consecutive relative
// ranks (the first chains one longer when they do not divide evenly), the root sending each
// segment to every chain head in turn, each rank forwarding a segment to its successor while it
// receives the next (a sendrecv); `segment` bytes per segment, 0 = the whole message at once.
int bcast_chain(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, int fanout, long long segment);
// BG/P's DCMF selection by the communicator's (x,y,z,t) shape, with its rectangle broadcast.
int bcast_dcmf(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);

// The bytes of `count` elements of `type`: the message size the selection rules go by.
long long message_bytes(int count, MPI_Datatype type);

// The thesis' MPICH rule (sim_bcast.cpp): binomial below 12 KiB or on fewer than 8 ranks,
// scatter + recursive doubling below 512 KiB on a power-of-two size, else scatter + ring.
int bcast_mpich(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// The rule's pick for a message of `bytes` on `ranks` ranks: "binomial", "scatter_rdb" or "scatter_ring".
const char* mpich_choice(long long bytes, int ranks);

}  // namespace hympi_sim
