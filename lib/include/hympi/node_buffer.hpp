// A node-shared buffer: RAII over MPI_Win_allocate_shared. The node leader
// allocates the whole segment, the others attach; addresses are computed from the
// leader's base (SimGrid returns the segment start for every rank). The unified
// memory model is used: MPI_Win_lock_all once, MPI_Win_sync around node syncs.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <string>

namespace hympi {

class Topology;

class NodeBuffer {
 public:
  NodeBuffer() = default;
  // Collective over the node communicator of `topo` (and over topo.comm() for the
  // space check, so every rank throws together). `bytes` may be 0.
  NodeBuffer(const Topology& topo, std::size_t bytes);
  // Bound to `topo`, nothing allocated yet: the first reserve() creates the window.
  explicit NodeBuffer(const Topology& topo) : topo_(&topo) {}
  ~NodeBuffer();
  NodeBuffer(NodeBuffer&& other) noexcept;
  NodeBuffer& operator=(NodeBuffer&& other) noexcept;
  NodeBuffer(const NodeBuffer&) = delete;
  NodeBuffer& operator=(const NodeBuffer&) = delete;

  // Collective: grows geometrically (at least doubling) when `bytes` exceeds the
  // capacity; contents are not kept. Returns true if the segment was replaced.
  bool reserve(std::size_t bytes);

  std::byte* data() const { return base_; }
  std::size_t capacity() const { return capacity_; }
  MPI_Win window() const { return win_; }

  // MPI_Win_sync on this window (memory barrier of the unified model); a no-op
  // before allocation.
  void sync_memory() const;

 private:
  void allocate(std::size_t bytes);
  void release() noexcept;

  const Topology* topo_ = nullptr;
  MPI_Win win_ = MPI_WIN_NULL;
  std::byte* base_ = nullptr;
  std::size_t capacity_ = 0;
};

// Free bytes on the file system that backs shared windows (/dev/shm, or
// $HYMPI_SHM_DIR). Returns -1 when it cannot be determined.
long long shared_memory_available();

// Throws out_of_memory (collectively over `comm`) when `bytes` per node do not fit.
void check_shared_memory(MPI_Comm comm, bool is_leader, std::size_t bytes);

}  // namespace hympi
