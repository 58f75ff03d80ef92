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

std::atomic<int>& requests_in_flight() {
  static std::atomic<int> count{0};  // progress threads (node_exchange.hpp) post requests too
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
