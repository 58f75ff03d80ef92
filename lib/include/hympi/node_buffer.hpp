// A node-shared buffer: RAII over MPI_Win_allocate_shared. The node leader
// allocates the whole segment, the others attach; addresses are computed from the
// leader's base (SimGrid returns the segment start for every rank). The unified
// memory model is used: MPI_Win_lock_all once, MPI_Win_sync around node syncs.
// Every page is allocated when the window is created (MADV_POPULATE_WRITE), so a
// full /dev/shm is a hympi::Error on every rank then, never a SIGBUS later.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <memory>
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
  // A bound buffer keeps its topology alive; once the user freed topo.comm(),
  // reserve() throws "communicator was freed" (data() and destruction stay safe).
  explicit NodeBuffer(const Topology& topo);
  ~NodeBuffer();
  NodeBuffer(NodeBuffer&& other) noexcept;
  NodeBuffer& operator=(NodeBuffer&& other) noexcept;
  NodeBuffer(const NodeBuffer&) = delete;
  NodeBuffer& operator=(const NodeBuffer&) = delete;

  // Collective: grows geometrically (doubling, or exactly `bytes` when the double
  // does not fit) when `bytes` exceeds the capacity; contents are not kept.
  // Returns true if the segment was replaced. Strong guarantee: the new window is
  // made while the old one lives (both must fit together); on failure every rank
  // throws the same error and the buffer is unchanged.
  bool reserve(std::size_t bytes);

  std::byte* data() const { return base_; }
  std::size_t capacity() const { return capacity_; }
  MPI_Win window() const { return win_; }

  // MPI_Win_sync on this window (memory barrier of the unified model); a no-op
  // before allocation.
  void sync_memory() const;

 private:
  void allocate(std::size_t bytes);
  void reserve_pages(std::size_t bytes);
  void release() noexcept;

  std::shared_ptr<const Topology> topology_owner_;  // outlives the window: release() runs in the destructor body
  const Topology* topo_ = nullptr;
  MPI_Win win_ = MPI_WIN_NULL;
  std::byte* base_ = nullptr;
  std::size_t capacity_ = 0;
};

// The directory whose file system backs shared windows: $HYMPI_SHM_DIR, else the
// directory of the file the MPI mapped for the last window (learned from
// /proc/self/maps), else $OMPI_MCA_osc_sm_backing_directory, else /dev/shm.
std::string shared_memory_directory();

// Free bytes on that file system. Returns -1 when it cannot be determined.
long long shared_memory_available();

// Collective over topo.comm(): throws out_of_memory on every rank when `bytes`
// per node, summed over the emulated nodes of each host, do not fit the free
// space less some room for the MPI's own shared segments.
void check_shared_memory(const Topology& topo, std::size_t bytes);

}  // namespace hympi
