// Private helper of the core: the multi-leader bridge. A node's cross-node
// traffic is cut into k slices; slice s of node n is exchanged by node rank
// s % size(n) over bridge communicator s, whose members are those owners in node
// order (bridge rank = node index). Slice 0's members are the topology's bridge of
// node leaders, so k = 1 is exactly the single-leader scheme; every object has its
// own communicators (nonblocking collectives of several objects in flight). A
// node with fewer ranks than k gives a rank several slices.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"

namespace hympi {

class Topology;

namespace detail {

// options.progress_thread needs MPI_THREAD_MULTIPLE; true when this process can
// honour it (or it is not asked). Local: callers agree it with their other checks.
bool progress_thread_available(const CollectiveOptions& options);
inline constexpr const char* kProgressThreadNeedsMultiple =
    "progress_thread needs MPI_THREAD_MULTIPLE on every rank (initialize MPI with MPI_Init_thread)";

// The automatic leader count (options.leaders = 0) for an exchange that moves
// `bytes` over the bridges per call (allgather(v): the whole result; bcast: the
// message; allreduce/reduce: the vector): one leader per kBytesPerLeader, at
// least 1, at most largest_node. Measured (README "Multi-leader"): on 2 x 2
// emulated nodes 2 leaders paid from 512 KiB in all three collectives and lost
// (bcast, allgather) or tied (allreduce) below 256 KiB.
inline constexpr std::uint64_t kBytesPerLeader = std::uint64_t{256} << 10;
int automatic_leaders(std::uint64_t bytes, int largest_node);

// The slice count used for `requested` leaders (0 = automatic_leaders(bytes)).
// Never more than the largest node's rank count, 1 on one node. Local: `bytes`
// and `requested` must be agreed already (every create's Agreement), so the count
// is the same on every rank.
int effective_leaders(const Topology& topo, int requested, std::uint64_t bytes);

// Elements [first, last) of slice s when n elements are cut into k slices.
struct SliceRange {
  std::int64_t first, last;
};
inline SliceRange slice_range(std::int64_t n, int s, int k) {
  return {n * s / k, n * (s + 1) / k};
}

class Bridges {
 public:
  // Collective over topo.comm() (only the members of each new bridge take part).
  Bridges(const Topology& topo, int slices);
  ~Bridges();
  Bridges(const Bridges&) = delete;
  Bridges& operator=(const Bridges&) = delete;

  int slices() const { return slices_; }
  // Slices this rank exchanges, ascending, with their communicators.
  const std::vector<int>& owned() const { return owned_; }
  MPI_Comm comm(int slice) const { return comms_[slice]; }
  bool owns_any() const { return !owned_.empty(); }

 private:
  int slices_;
  std::vector<int> owned_;
  std::vector<MPI_Comm> comms_;  // per slice; MPI_COMM_NULL where this rank is no member
  std::vector<bool> created_;    // freed by us (where this rank is a member)
};

}  // namespace detail
}  // namespace hympi
