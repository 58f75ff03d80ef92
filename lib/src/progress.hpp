// Private helper of the core: the one progress engine of this process.
//
// Every hybrid operation in flight (a node exchange: node arrival -> bridge
// slices posted -> polled -> released) and every grouped collective's chain of
// levels (grouped/steps.hpp: a level posted once the one before completed) is a
// Flight registered here in start order. A flight's advance() may start or test
// other flights (a grouped chain's inner collectives): add() during a round
// appends (the round iterates by index and takes it later in the same round),
// and a poke() inside a round returns at once. Any hympi test(), wait() or long wait of any object takes one round:
// it advances every flight that can move, so operations started in the same
// order may complete in any order (MPI-4's rule), and it drives MPI progress,
// so the application's own messages move too. Only the posting process can
// complete an MPI request, so the engine is per process; with progress threads
// one persistent worker per process takes the same rounds in the background.
//
// Flag waits spin in shared memory without entering MPI. While a rank spins, the
// neighbour it waits for may be waiting for this rank's MPI traffic: the
// application's own rendezvous message or one of hympi's bridge exchanges.
// Neither moves unless this rank enters MPI, so every long wait drives the
// engine and MPI (progress_then_idle).
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <exception>

#include "hympi/node_sync.hpp"  // IdleFunction

namespace hympi::detail {

// One operation in flight, as the engine sees it.
class Flight {
 public:
  Flight(const Flight&) = delete;
  Flight& operator=(const Flight&) = delete;

  // Takes every step that is ready without blocking; true once complete. Called
  // by the engine only, one thread at a time (its lock held).
  virtual bool advance() = 0;

 protected:
  Flight() = default;
  ~Flight() = default;

 private:
  friend class ProgressEngine;
  bool background_ = false;
  std::atomic<bool> done_{false};
  std::exception_ptr error_;
  MPI_Comm comm_ = MPI_COMM_NULL;  // where this flight drives MPI progress
};

class ProgressEngine {
 public:
  // Registers a flight just started (after its first non-blocking steps) and
  // takes one round. `background`: the process's worker thread drives it too
  // (needs MPI_THREAD_MULTIPLE, checked by the collectives at creation).
  static void add(Flight& flight, MPI_Comm comm, bool background);
  // One round of every flight, then MPI progress while `flight` is incomplete.
  // True once `flight` is complete (it then leaves the engine); its error, if a
  // step failed, is rethrown here (the owner's test/wait), never in another's.
  static bool test(Flight& flight);
  // Rounds until `flight` is complete, spinning first, then driving MPI and
  // yielding the core between rounds.
  static void wait(Flight& flight, int spins_before_yield);
  // Takes a flight out of the engine if it is still there (its owner is destroyed).
  static void remove(Flight& flight);
  // True while any hybrid operation of this process is in flight.
  static bool busy();
  // One round of every flight (for waits elsewhere in the core: flag syncs,
  // request waits, a leader about to enter a blocking bridge collective).
  static void poke();

 private:
  static void round_locked();
  static void retire(std::size_t index);
  static bool finished(Flight& flight);
  static void worker_loop();
};

// Requests this process started and has not completed yet (SMPI's idle rule).
std::atomic<int>& requests_in_flight();

// One cheap MPI call that drives progress on every channel (MPI_Iprobe).
void drive_progress(MPI_Comm comm);

// One step of a long wait, after spinning has not helped: a round of the engine,
// MPI progress, then yield the core. An installed idle function
// (set_idle_function: cooperative runtimes such as SimGrid SMPI, which progress
// in their own kernel) replaces the yield, and MPI progress is then driven only
// while hympi has requests in flight.
void progress_then_idle(MPI_Comm comm);

}  // namespace hympi::detail
