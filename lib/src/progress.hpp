// Nonblocking broadcasts (Bcast::start) leave MPI requests in flight while the
// caller computes. A leader that then spins on shared-memory flags makes no MPI
// call, so without help a large message it must forward (rendezvous) would never
// move and its node neighbours, waiting on it, would wait forever. The flag
// spin-wait therefore pokes the MPI progress engine while requests are in flight.
#pragma once
#include <mpi.h>

namespace hympi::detail {

// Requests this process started and has not completed yet.
int& requests_in_flight();

// One cheap MPI call that drives progress (MPI_Iprobe), only when something is in flight.
void poke_progress_if_needed(MPI_Comm comm);

}  // namespace hympi::detail
