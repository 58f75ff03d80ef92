#include "bridges.hpp"

#include <algorithm>
#include <string>

#include "comm_from_ranks.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi::detail {

bool progress_thread_available(const CollectiveOptions& options) {
  if (!options.progress_thread) return true;
  int provided = MPI_THREAD_SINGLE;
  HYMPI_CHECK_MPI(MPI_Query_thread(&provided));
  return provided == MPI_THREAD_MULTIPLE;
}

int automatic_leaders(std::uint64_t bytes, int largest_node) {
  const std::uint64_t wanted = std::max<std::uint64_t>(1, bytes / kBytesPerLeader);
  return static_cast<int>(std::min<std::uint64_t>(wanted, static_cast<std::uint64_t>(std::max(1, largest_node))));
}

int effective_leaders(const Topology& topo, int requested, std::uint64_t bytes) {
  if (topo.num_nodes() <= 1) return 1;
  std::size_t largest = 1;
  for (const auto& ranks : topo.map().ranks_of_node) largest = std::max(largest, ranks.size());
  const int wanted = requested > 0 ? requested : automatic_leaders(bytes, static_cast<int>(largest));
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
    if (s == 0 && topo.num_nodes() == 1) {
      comms_[0] = topo.bridge_comm();  // nothing crosses nodes: never used, not worth a communicator
      continue;
    }
    if (s == 0) {
      // A duplicate, not the topology's bridge itself: every object posts its
      // nonblocking bridge collectives when its own node is ready, so two objects
      // in flight can reach the bridge in different orders on different nodes,
      // which MPI forbids on one communicator (and with equal counts would pair
      // them silently).
      HYMPI_CHECK_MPI(MPI_Comm_dup(topo.bridge_comm(), &comms_[0]));
    } else {
      // Tags apart from the topology's bridge (0) and the grids' (1..6).
      comms_[s] = comm_from_ranks(topo.comm(), members, 100 + s);
    }
    created_[s] = true;
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
