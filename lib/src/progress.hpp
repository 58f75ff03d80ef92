// Flag waits spin in shared memory without entering MPI. While a rank spins, the
// neighbour it waits for may be waiting for this rank's MPI traffic: the
// application's own rendezvous message (an MPI_Irecv posted before the
// collective) or hympi's nonblocking broadcast. Neither moves unless this rank
// enters MPI, so every long wait drives the progress engine (progress_then_idle).
#pragma once
#include <mpi.h>

#include <atomic>

#include "hympi/node_sync.hpp"  // IdleFunction

namespace hympi::detail {

// Requests this process started and has not completed yet.
std::atomic<int>& requests_in_flight();

// One cheap MPI call that drives progress on every channel (MPI_Iprobe).
void drive_progress(MPI_Comm comm);

// One step of a long wait, after spinning has not helped: drive MPI progress, then
// yield the core. An installed idle function (set_idle_function: cooperative
// runtimes such as SimGrid SMPI, which progress in their own kernel) replaces the
// yield, and progress is then driven only while hympi has requests in flight.
void progress_then_idle(MPI_Comm comm);

}  // namespace hympi::detail
