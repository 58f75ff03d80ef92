// The simulated MPI layer's own segmented Open MPI algorithms (SMPI builds only), for the
// segment sizes SimGrid 3.32 fixes inside its versions (its ompi_pipeline reduce picks 1/32/64 KiB
// by a size rule, ompi_ring_segmented always 1 MiB, ompi_linear_sync a 1 or 32 KiB first segment)
// while the thesis forced 1, 4, 32 or 64 KB. Same schedules as Open MPI's tuned component, made of
// the layer's charged messages (sim_p2p.hpp); `segment` in bytes, 0 = one segment (the whole
// message, or block). Named per level like the chain broadcast (sim_levels.cpp):
//   reduce     hympi_pipeline:SEG        a chain of fanout 1 from the root; each rank receives
//                                        segment s + 1 from its child while it sends its partial
//                                        result of segment s to its parent (a sendrecv)
//   allreduce  hympi_ring_segmented:SEG  the ring reduce-scatter run in phases of one segment per
//                                        block, then the ring allgather of whole blocks; fewer
//                                        than p x SEG bytes: the plain ring (one phase)
//   gather     hympi_linear_sync:SEG     the root, rank after rank, sends a 0-byte sync and waits
//                                        for the first SEG bytes; the rest of every block flows
//                                        meanwhile; the root waits for all of it at the end
#pragma once
#include <mpi.h>

namespace hympi_sim {

// `name` is "<base>:SEG" for one of the three bases above (true, *segment set); another name
// false. A base with a bad tail ("hympi_pipeline:x") stops the run, named (exit 2).
bool segmented_of(const char* name, const char* base, long long* segment);

// A non-commutative op or a datatype with gaps (reduce, allreduce), or a count below the ring's
// size (allreduce), runs SMPI's own collective instead (Open MPI's tuned code does not segment
// the first and third either).
int reduce_pipeline(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                    long long segment);
int allreduce_ring_segmented(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                             long long segment);
int gather_linear_sync(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype,
                       int root, MPI_Comm comm, long long segment);

}  // namespace hympi_sim
