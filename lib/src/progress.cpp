#include "progress.hpp"

#include <sched.h>

#include <atomic>

namespace hympi {

namespace {
std::atomic<IdleFunction> g_idle{nullptr};
}  // namespace

void set_idle_function(IdleFunction function) {
  g_idle.store(function, std::memory_order_relaxed);
}

namespace detail {

int& requests_in_flight() {
  static int count = 0;  // MPI_THREAD_FUNNELED at most: one thread drives hympi
  return count;
}

void drive_progress(MPI_Comm comm) {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
}

void progress_then_idle(MPI_Comm comm) {
  if (const IdleFunction custom = g_idle.load(std::memory_order_relaxed)) {
    if (requests_in_flight() > 0) drive_progress(comm);
    custom();
    return;
  }
  drive_progress(comm);
  sched_yield();
}

}  // namespace detail
}  // namespace hympi
