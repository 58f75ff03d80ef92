#include "bridges.hpp"

#include <algorithm>
#include <string>

#include "comm_from_ranks.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi::detail {

void check_leaders(const Topology& topo, const CollectiveOptions& options) {
  int extremes[2] = {options.leaders, -options.leaders};
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, extremes, 2, MPI_INT, MPI_MAX, topo.comm()));
  const int highest = extremes[0], lowest = -extremes[1];
  require(lowest >= 0, "leaders must be >= 0 (0 = automatic, 1 = one leader per node), got " + std::to_string(lowest));
  require(lowest == highest, "leaders differs between ranks (" + std::to_string(lowest) + " and " +
                                 std::to_string(highest) + "); every rank must pass the same value");
}

namespace {

// The automatic choice (measured, README "Multi-leader"): more leaders pay only
// where message rate limits, i.e. small slices on many nodes.
int automatic_leaders(std::uint64_t bytes_per_node, int nodes) {
  (void)bytes_per_node;
  (void)nodes;
  return 1;
}

}  // namespace

int effective_leaders(const Topology& topo, int requested, std::uint64_t bytes_per_node) {
  if (topo.num_nodes() <= 1) return 1;
  std::size_t largest = 1;
  for (const auto& ranks : topo.map().ranks_of_node) largest = std::max(largest, ranks.size());
  const int wanted = requested > 0 ? requested : automatic_leaders(bytes_per_node, topo.num_nodes());
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(wanted), largest));
}

Bridges::Bridges(const Topology& topo, int slices)
    : slices_(slices), comms_(slices, MPI_COMM_NULL), created_(slices, false) {
  const auto& nodes = topo.map().ranks_of_node;
  for (int s = 0; s < slices; ++s) {
    std::vector<int> members;
    for (const auto& ranks : nodes) members.push_back(ranks[s % ranks.size()]);
    if (std::find(members.begin(), members.end(), topo.rank()) == members.end()) continue;
    owned_.push_back(s);
    if (s == 0) {
      comms_[0] = topo.bridge_comm();
    } else {
      // Tags apart from the topology's bridge (0) and the grids' (1..6).
      comms_[s] = comm_from_ranks(topo.comm(), members, 100 + s);
      created_[s] = true;
    }
  }
}

Bridges::~Bridges() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (int s = 0; s < slices_; ++s)
    if (created_[s]) MPI_Comm_free(&comms_[s]);
}

}  // namespace hympi::detail
