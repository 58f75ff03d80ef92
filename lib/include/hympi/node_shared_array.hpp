// A node-shared read-only array: filled once per node, then read by every rank of
// the node by load/store. Policy::hybrid keeps one copy per node in a NodeBuffer
// window; Policy::pure gives every rank a private copy behind the same interface,
// so a kernel that reads through data() is written once for both.
//
// Filling: fill_by_leader() (one writer per node: the leader, or every rank under
// pure), fill_cooperatively() (every node rank fills its own contiguous range), or
// write through mutable_data() yourself and call publish(). publish() is the fence
// of the unified memory model (MPI_Win_sync, node sync, MPI_Win_sync): stores made
// before it on any node rank are visible to every node rank after it. The fill
// functions may be called again (a new generation): they first wait, with one more
// node sync, until every node rank stopped reading the old contents. Writing
// through mutable_data() after a publish() needs that care from the caller (a node
// sync, or two generations as hsumma/src/shared_inputs.cpp keeps).
//
// Lifetime: the array keeps its topology alive (as the collectives do), so it may
// outlive the communicator. Once the user freed topo.comm() (MPI_Comm_free), the
// calls that communicate or consult the topology (the fills, publish(), writer(),
// bytes_per_node()) throw hympi::Error saying the communicator was freed, on every
// rank; the local accessors (data(), as(), mutable_data(), size(), shared(),
// publish_seconds()) still read the array's own memory, and destruction is safe.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>

#include "hympi/collectives.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/node_sync.hpp"

namespace hympi {

class Topology;

class NodeSharedArray {
 public:
  // Collective over topo.comm(): `bytes` must be the same on every rank of a node
  // (checked: every rank throws invalid_argument otherwise); different nodes may
  // differ. A window that does not fit /dev/shm is out_of_memory on every rank.
  NodeSharedArray(const Topology& topo, std::size_t bytes, Policy policy, SyncKind sync = SyncKind::barrier);
  ~NodeSharedArray();
  NodeSharedArray(const NodeSharedArray&) = delete;
  NodeSharedArray& operator=(const NodeSharedArray&) = delete;

  // Collective over topo.comm(). `load(data, bytes)` runs on the node leader
  // (hybrid) or on every rank (pure); an exception it throws is agreed over
  // topo.comm() (every rank throws the same hympi::Error), then publish().
  void fill_by_leader(const std::function<void(std::byte* data, std::size_t bytes)>& load);
  // Collective over topo.comm(). `fill(data, begin, end)` runs on every node rank
  // for its own range [begin, end) of the bytes (ranges split on multiples of
  // `granule` bytes: one element, or a cache line to keep writers apart); under
  // pure one call covers everything. Errors are agreed as above, then publish().
  void fill_cooperatively(const std::function<void(std::byte* data, std::size_t begin, std::size_t end)>& fill,
                          std::size_t granule = 1);
  // Collective over the node: see the header comment.
  void publish();

  const std::byte* data() const { return data_; }
  template <class T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }
  // For writing before publish(); under hybrid every node rank sees the same bytes.
  std::byte* mutable_data() { return data_; }
  std::size_t size() const { return bytes_; }
  bool shared() const { return policy_ == Policy::hybrid; }
  // Whether fill_by_leader() runs the loader on this rank.
  bool writer() const;
  // Memory the array takes on this rank's node: one copy (hybrid) or one per node rank (pure).
  std::size_t bytes_per_node() const;
  // Seconds spent in publish() on this rank (node sync, including waiting for writers).
  double publish_seconds() const { return publish_seconds_; }

 private:
  void wait_for_readers();
  void require_comm_alive(const char* call) const;

  std::shared_ptr<const Topology> topology_owner_;  // first: destroyed last, after the window and sync
  const Topology& topo_;
  Policy policy_;
  std::size_t bytes_ = 0;
  NodeBuffer window_;                     // hybrid
  std::unique_ptr<std::byte[]> private_;  // pure
  std::unique_ptr<NodeSync> sync_;
  std::byte* data_ = nullptr;
  double publish_seconds_ = 0;
  bool published_ = false;
};

}  // namespace hympi
