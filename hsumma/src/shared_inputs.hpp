// Hybrid SUMMA's node-shared inputs: the A and B blocks of the ranks of a node
// live in one node window, so a grid row (column) that lies inside one node reads
// its A (B) panels straight from the owner's block: no broadcast and no node sync
// per step, since inputs do not change during a multiply. Each multiply copies the
// caller's blocks in and publishes them with one node sync. Two generations: the
// copy for multiply k overwrites what multiply k-2 read, which every node rank
// finished before the sync of multiply k-1 - so back-to-back multiplies without a
// closing barrier are safe too. The window is the core's NodeSharedArray (hybrid),
// refilled cooperatively (each rank its own blocks) and published once per multiply.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hympi/node_shared_array.hpp"
#include "hympi/node_sync.hpp"

namespace hympi {
class Topology;
}

namespace hympi::hsumma {

class SharedInputs {
 public:
  // Collective over topo.comm(): this rank shares a_elems of A and b_elems of B
  // (0 for a matrix nobody reads directly).
  SharedInputs(const Topology& topo, SyncKind sync, std::int64_t a_elems, std::int64_t b_elems);

  // Collective over the node: copies this rank's blocks in, then one node sync.
  void publish(const double* A, const double* B);
  // The published blocks of comm rank r, which must be on this rank's node.
  const double* a(int comm_rank) const { return base() + offset_[comm_rank].a + generation_offset(); }
  const double* b(int comm_rank) const { return base() + offset_[comm_rank].b + generation_offset(); }

  double node_sync_seconds() const { return window_.publish_seconds(); }

 private:
  SharedInputs(const Topology& topo, SyncKind sync, std::int64_t a_elems, std::int64_t b_elems,
               const std::vector<std::int64_t>& sizes);
  struct Offsets {
    std::int64_t a = -1, b = -1;  // in doubles within one generation
  };
  const double* base() const { return window_.as<double>(); }
  std::int64_t generation_offset() const { return generation_ * generation_size_; }

  const Topology& topo_;         // valid as long as window_, which keeps the topology alive
  NodeSharedArray window_;       // after MPI_Comm_free its publish() throws "communicator was freed"
  std::vector<Offsets> offset_;  // per comm rank (only my node's are set)
  std::int64_t a_elems_ = 0, b_elems_ = 0, generation_size_ = 0;
  int generation_ = 1;  // the one last published; publish() fills the other
};

}  // namespace hympi::hsumma
