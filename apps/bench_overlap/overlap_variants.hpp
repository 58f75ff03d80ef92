// The object each variant measures, all behind hympi's one request model
// (PersistentCollective): "mpi" is MPI's nonblocking collective (mpi_collective.hpp),
// "pure" and "hybrid" are hympi's Allgatherv / Allreduce under that policy.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "hympi/persistent.hpp"
#include "hympi/topology.hpp"
#include "overlap_options.hpp"

namespace hympi::overlap {

// `op` (allgather | allreduce) of `size` doubles under `variant` (mpi | pure |
// hybrid); the hybrid variant takes --leaders and --progress-thread from `o`.
// Collective over topo.comm().
std::unique_ptr<PersistentCollective> make_collective(const Topology& topo, const std::string& op,
                                                      const std::string& variant, std::int64_t size,
                                                      const OverlapOptions& o);

}  // namespace hympi::overlap
