// Private helper of the core: a sub-communicator built by its members alone.
#pragma once

#include <mpi.h>

#include <vector>

#include "hympi/error.hpp"

namespace hympi {

// The communicator of `members` (ranks of `comm`, in new-rank order); only the
// members call it. Grids and the bridge know their members arithmetically, so no
// MPI_Comm_split is needed: a split gathers all (color, key) pairs over the whole
// communicator, which is O(P) at one rank in some MPIs (minutes at 16384 SimGrid
// SMPI ranks), while MPI_Comm_create_group involves the group only. Calls that
// may run concurrently on overlapping groups take distinct tags.
inline MPI_Comm comm_from_ranks(MPI_Comm comm, const std::vector<int>& members, int tag) {
  MPI_Group all = MPI_GROUP_NULL, part = MPI_GROUP_NULL;
  HYMPI_CHECK_MPI(MPI_Comm_group(comm, &all));
  HYMPI_CHECK_MPI(MPI_Group_incl(all, static_cast<int>(members.size()), members.data(), &part));
  MPI_Comm out = MPI_COMM_NULL;
  HYMPI_CHECK_MPI(MPI_Comm_create_group(comm, part, tag, &out));
  MPI_Group_free(&part);
  MPI_Group_free(&all);
  return out;
}

}  // namespace hympi
