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
#include <functional>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"

namespace hympi {

class Topology;

namespace detail {

// A value every rank must pass identically, named for the error message; or,
// with largest_wins, one that may differ and becomes the largest on every rank
// (a capacity: one window layout per node).
struct Agreed {
  std::string what;
  std::int64_t value;
  bool largest_wins = false;
};

// Collective over comm, one MPI_Allreduce: every rank throws the same
// hympi::Error naming the first value that differs between ranks. Returns the
// agreed values (the largest where largest_wins), in order.
std::vector<std::int64_t> require_same(MPI_Comm comm, const std::vector<Agreed>& values);

// Collective over topo.comm(), agreement before refusal: the local checks
// (options.leaders >= 0, a progress thread asked for is available, then
// `local_checks`, which may throw hympi::Error) are agreed on every rank, then
// every option and `values` (element size, capacity, ...) must be the same on
// every rank. Otherwise every rank throws the same hympi::Error naming the
// problem, and nobody is left inside a later collective.
// Returns the agreed `values` (require_same).
std::vector<std::int64_t> check_exchange_options(const Topology& topo, const CollectiveOptions& options,
                                                 const std::function<void()>& local_checks = {},
                                                 std::vector<Agreed> values = {});

// Appends every agreed option of the table (options.hpp), named prefix + key + suffix.
void add_agreed_options(std::vector<Agreed>& values, const CollectiveOptions& options, const std::string& prefix = "",
                        const std::string& suffix = "");

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
// Never more than the largest node's rank count, 1 on one node. Collective over
// topo.comm() (bytes are agreed, the largest value wins): the same on every rank.
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
