// Private helper of the core: MPI requests counted as in flight for the progress
// engine's idle rule (progress.hpp). Destroying the set completes what is still in flight: an
// object destroyed with a collective in flight (an exception unwinding a lookahead
// loop) must not free memory MPI still writes into. Declare it after the buffers
// it points into, so that it goes first.
#pragma once
#include <mpi.h>

#include <vector>

#include "hympi/error.hpp"
#include "progress.hpp"

namespace hympi::detail {

// The one "started, not completed" guard of every collective (and the C
// requests): a start(), run() or set_counts() while this object's previous
// start() has not completed is refused, with one message naming `what` and `call`.
[[noreturn]] void refuse_in_flight(const char* what, const char* call);
inline void require_idle(bool in_flight, const char* what, const char* call) {
  if (in_flight) refuse_in_flight(what, call);
}

class Requests {
 public:
  Requests() = default;
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;
  ~Requests() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized || requests_.empty()) return;
    // Errors cannot be thrown from here; the memory is safe either way.
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    clear();
  }
  // A new slot for MPI to fill (MPI_I... (..., add())).
  MPI_Request* add() {
    ++requests_in_flight();
    requests_.push_back(MPI_REQUEST_NULL);
    return &requests_.back();
  }
  bool empty() const { return requests_.empty(); }
  // True once every request completed (they are then released).
  bool test() {
    if (requests_.empty()) return true;
    int done = 0;
    HYMPI_CHECK_MPI(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE));
    if (done) clear();
    return done != 0;
  }
  // Completes every request. While other hympi operations fly in this process
  // they move meanwhile (progress engine): one of them may be what a peer needs
  // before it can complete ours.
  void wait() {
    if (requests_.empty()) return;
    if (!ProgressEngine::busy()) return wait_blocking();
    for (int spins = 0; !test();)
      if (spins < 64) {
        ProgressEngine::poke();
        ++spins;
      } else {
        progress_then_idle(MPI_COMM_WORLD);  // a round, MPI progress, the core given away
      }
  }

 private:
  // MPI_Waitall (the MPI, or a simulator, blocks): only when nothing else flies.
  void wait_blocking() {
    HYMPI_CHECK_MPI(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
    clear();
  }
  void clear() {
    requests_in_flight() -= static_cast<int>(requests_.size());
    requests_.clear();
  }
  std::vector<MPI_Request> requests_;
};

}  // namespace hympi::detail
