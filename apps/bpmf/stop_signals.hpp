// The stop request of a checkpointing hympi-bpmf chain (README "Stopping a chain"):
// SIGTERM, SIGINT or SIGUSR1 to any rank, and under Open MPI's mpirun also the
// launcher's SIGCONT and its death. A handler only records the request; the ranks
// agree on it at fixed points (after each iteration, after loading the data) and
// stop there together.
#pragma once
#include <mpi.h>

namespace bpmf::app {

// Installs the handlers, before the data are read: a stop sent while a long input
// loads must not kill the ranks (the default action of all three signals).
void catch_stop_signals();

struct StopRequest {
  int requested = 0;  // 1 when some rank was asked to stop
  int signal = 0;     // the largest signal number received on any rank
};

// Collective over comm: whether any rank was asked to stop so far.
StopRequest agree_on_stop(MPI_Comm comm);

// "SIGTERM", "SIGINT", "SIGUSR1", "SIGCONT from mpirun", for the stop line.
const char* signal_name(int sig);

}  // namespace bpmf::app
