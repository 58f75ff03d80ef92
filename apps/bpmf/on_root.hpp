// Rank 0 does `work` (file system only); every rank learns whether it failed and
// throws the same hympi::Error(invalid_argument) (exit 2 on every rank).
#pragma once
#include <mpi.h>

#include <exception>
#include <string>

#include "app.hpp"

namespace bpmf::app {

template <class Work>
void on_root(MPI_Comm comm, int rank, Work work) {
  std::string error;
  if (rank == 0) {
    try {
      work();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  hympi::apps::agree_on_success(comm, error);
}

}  // namespace bpmf::app
