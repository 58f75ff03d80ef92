// Topology of a communicator: its node communicator (shared memory; real or
// emulated), the bridge communicator of node leaders, and the rank map that lets
// results come out in communicator-rank order for any placement.
// Created once per (communicator, layout), cached on the communicator, reused.
#pragma once
#include <mpi.h>

#include <memory>
#include <vector>

#include "hympi/layout.hpp"
#include "hympi/rank_map.hpp"

namespace hympi {

class Topology : public std::enable_shared_from_this<Topology> {
 public:
  // The cached topology of `comm` under `layout` (default: from the environment).
  // Collective over `comm` the first time; later calls are free. The reference is
  // valid until `comm` is freed (or MPI_Finalize for MPI_COMM_WORLD); collectives
  // built on it keep it alive longer (keep_alive()), and once `comm` is freed
  // their calls raise hympi::Error (require_comm_alive()) instead of using it.
  static const Topology& of(MPI_Comm comm);
  static const Topology& of(MPI_Comm comm, const LayoutSpec& layout);

  // Every rank its own node, known without any communication: all the pure policy
  // needs (node discovery costs several collectives per communicator, minutes each
  // at 16384 simulated ranks). node_comm() is MPI_COMM_SELF, bridge_comm() is
  // `comm` itself. Cached like of(); not collective.
  static const Topology& flat(MPI_Comm comm);

  // Builds an uncached topology; the object owns its node and bridge communicators.
  Topology(MPI_Comm comm, const LayoutSpec& layout);
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  MPI_Comm comm() const { return comm_; }
  // Shared ownership of a cached topology (null for one built by hand, whose
  // owner decides its lifetime): what an object built on it holds.
  std::shared_ptr<const Topology> keep_alive() const { return weak_from_this().lock(); }
  // False once the user freed comm() (MPI_Comm_free, legal while objects live):
  // node and bridge communicators are the topology's own and stay valid, comm() not.
  bool comm_alive() const { return !comm_freed_; }
  // Throws hympi::Error naming `what` when comm() was freed. Every rank freed it
  // (MPI_Comm_free is collective), so every rank throws.
  void require_comm_alive(const char* what) const;
  int rank() const { return rank_; }
  int size() const { return size_; }

  MPI_Comm node_comm() const { return node_comm_; }
  // The real shared-memory node (MPI_COMM_TYPE_SHARED), which may hold several
  // emulated nodes: the ranks whose windows share one /dev/shm.
  MPI_Comm host_comm() const { return host_comm_; }
  int node_rank() const { return node_rank_; }
  int node_size() const { return node_size_; }
  bool is_leader() const { return node_rank_ == 0; }
  bool is_flat() const { return !owns_comms_; }

  // Communicator of node leaders (rank = node index); MPI_COMM_NULL on non-leaders.
  MPI_Comm bridge_comm() const { return bridge_comm_; }
  int node_index() const { return map_.node_of_rank[rank_]; }
  int num_nodes() const { return map_.num_nodes; }
  const NodeRankMap& map() const { return map_; }
  const LayoutSpec& layout() const { return layout_; }

  // comm ranks of my node, ascending; node_ranks()[i] has node rank i.
  const std::vector<int>& node_ranks() const { return map_.ranks_of_node[node_index()]; }
  int node_of(int comm_rank) const { return map_.node_of_rank[comm_rank]; }
  int leader_of_node(int node) const { return map_.ranks_of_node[node].front(); }

 private:
  struct FlatTag {};
  Topology(MPI_Comm comm, FlatTag);
  friend struct TopologyCache;

  MPI_Comm comm_;
  bool owns_comms_ = true;
  bool comm_freed_ = false;
  LayoutSpec layout_;
  int rank_ = 0, size_ = 0;
  MPI_Comm node_comm_ = MPI_COMM_NULL;
  MPI_Comm host_comm_ = MPI_COMM_NULL;
  MPI_Comm bridge_comm_ = MPI_COMM_NULL;
  int node_rank_ = 0, node_size_ = 0;
  NodeRankMap map_;
};

}  // namespace hympi
