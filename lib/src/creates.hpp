// Internal: the core's creates continuing an agreement the caller started (a C
// init's handle, datatype and info checks): they add their own checks and
// values, run the one round, then build. The public creates start an empty one.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "agreement.hpp"
#include "hympi/collectives.hpp"
#include "hympi/reduce.hpp"

namespace hympi::detail {

std::unique_ptr<Allgatherv> create_allgatherv(const Topology& topo, std::vector<std::int64_t> counts,
                                              std::size_t elem_size, const CollectiveOptions& options,
                                              Agreement& agreement);
std::unique_ptr<PersistentCollective> create_fixed_bcast(const Topology& topo, int root, std::int64_t count,
                                                         std::size_t elem_size, const CollectiveOptions& options,
                                                         Agreement& agreement);
std::unique_ptr<Allreduce> create_allreduce(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op,
                                            const CollectiveOptions& options, Agreement& agreement);
std::unique_ptr<Reduce> create_reduce(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                                      const CollectiveOptions& options, Agreement& agreement);

}  // namespace hympi::detail
