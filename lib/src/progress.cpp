#include "progress.hpp"

namespace hympi::detail {

int& requests_in_flight() {
  static int count = 0;  // MPI_THREAD_FUNNELED at most: one thread drives hympi
  return count;
}

void poke_progress_if_needed(MPI_Comm comm) {
  if (requests_in_flight() == 0) return;
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
}

}  // namespace hympi::detail
