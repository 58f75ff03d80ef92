// Private helper of the core: hympi's collectives run over one group of ranks.
#pragma once

#include <mpi.h>

#include <string>

#include "hympi/error.hpp"

namespace hympi {

// Refuses an intercommunicator (two groups: MPI_Comm_split_type and the node
// windows have no meaning on it; Open MPI and MPICH crash inside them) with an
// error naming it. MPI_Comm_test_inter is local and gives every rank of both
// groups the same answer, so every rank refuses alike, before any collective.
inline void require_intracomm(MPI_Comm comm, const char* who) {
  if (comm == MPI_COMM_NULL) require(false, std::string(who) + " called with MPI_COMM_NULL");
  int inter = 0;
  HYMPI_CHECK_MPI(MPI_Comm_test_inter(comm, &inter));
  if (inter)
    require(false, std::string(who) +
                       ": the communicator is an intercommunicator (two groups); hympi's collectives need an "
                       "intracommunicator (e.g. MPI_Intercomm_merge of it)");
}

}  // namespace hympi
