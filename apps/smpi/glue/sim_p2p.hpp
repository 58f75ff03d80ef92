// The simulated MPI layer's point-to-point messages (SMPI builds only). Every
// message the layer's own collectives send goes through these, so the fidelity
// settings (apps/smpi/README.md, "Fidelity settings") charge every message the
// same way whatever its size or mode: the sender's and receiver's software
// overheads and, with fair link sharing, the route's hop latency. SMPI's own
// op-cost callbacks charge only detached or nonblocking sends, which is why the
// layer does it itself. Implemented in sim_p2p.cpp.
//
// What a message is charged (settings: sim_settings.hpp, costs: the platform's host properties):
//   overheads = all   the sender sleeps hympi_net_send_overhead_us before an off-node message
//                     (hympi_shm_overhead_us before an on-node one), the receiver sleeps
//                     hympi_net_recv_overhead_us after an off-node one; SMPI's op-cost
//                     callbacks charge nothing for these messages (no double charge).
//   overheads = smpi  nothing here: SMPI's callbacks (onnode_cost.cpp) as for any message.
//   sharing = fair    the receiver sleeps hops x hympi_hop_latency_us after the data arrived
//                     (hops: links of the SimGrid route, cached per host pair).
//   sharing = route   nothing here: the links' latency is in the network model.
// A sleep occupies the rank in simulated time (sg_actor_sleep_for), as SMPI's own overheads do.
#pragma once
#include <mpi.h>

#include <cstdint>

namespace hympi_sim {

// Tags of the layer's messages: above any tag the project's code uses, so an application
// receive (even MPI_ANY_TAG) on the same communicator never meets one inside a collective
// that all its ranks are in. Each algorithm takes its own offset below tag_base + 64.
constexpr int tag_base = 0x3ffe0000;

// A charged message (blocking semantics as MPI_Send / MPI_Recv / MPI_Sendrecv).
int send(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm);
int recv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm);
int sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dst, int stag, void* rbuf, int rcount,
             MPI_Datatype rtype, int src, int rtag, MPI_Comm comm);
// A posted receive (as MPI_Irecv) and its completion, charged at completion like recv.
int irecv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* request);
int wait(MPI_Request* request, MPI_Comm comm);

// An uncharged zero-byte signal: a hardware event, not a software message (e.g. BG/P's
// deposit bit telling a node on a line broadcast's path that the data passed by). It
// travels the network as a 0-byte message (no overheads, SMPI's callbacks suppressed;
// under sharing = fair the receiver still waits the route's hop latency) and carries an
// 8-byte payload outside the simulated bytes (e.g. a pointer: ranks share one address
// space), delivered in send order per (source, destination, tag): do not interleave
// notifies of one pair and tag on two communicators.
int notify(int dst, int tag, MPI_Comm comm, std::uint64_t payload = 0);
int wait_notify(int src, int tag, MPI_Comm comm, std::uint64_t* payload = nullptr);

}  // namespace hympi_sim
