// The simulated MPI layer's point-to-point messages (SMPI builds only). Every
// message the layer's own collectives send goes through these, so the fidelity
// settings (apps/smpi/README.md, "Fidelity settings") charge every message the
// same way whatever its size or mode: the sender's and receiver's software
// overheads and, with fair link sharing, the route's hop latency. SMPI's own
// op-cost callbacks charge only detached or nonblocking sends, which is why the
// layer does it itself. Implemented in sim_p2p.cpp.
#pragma once
#include <mpi.h>

namespace hympi_sim {

// A charged message (blocking semantics as MPI_Send / MPI_Recv / MPI_Sendrecv).
int send(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm);
int recv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm);
int sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dst, int stag, void* rbuf, int rcount,
             MPI_Datatype rtype, int src, int rtag, MPI_Comm comm);

// An uncharged zero-byte signal: a hardware event, not a software message (e.g. BG/P's
// deposit bit telling a node on a line broadcast's path that the data passed by).
int notify(int dst, int tag, MPI_Comm comm);
int wait_notify(int src, int tag, MPI_Comm comm);

}  // namespace hympi_sim
