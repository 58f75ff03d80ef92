// The "mpi" variant: MPI's own nonblocking allgather or allreduce (sum of doubles)
// on private buffers, behind hympi's request model so that it runs through the
// same overlap loop as hympi's collectives. Every start() issues a fresh
// MPI_Iallgather / MPI_Iallreduce, as OSU's osu_iallgather does; not MPI-4's
// persistent MPI_Allgather_init, whose MPICH 4.0.2 form returns stale results
// after its first start.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hympi/persistent.hpp"
#include "hympi/topology.hpp"

namespace hympi::overlap {

class MpiNonblocking final : public PersistentCollective {
 public:
  enum class Kind { allgather, allreduce_sum };
  // `count` doubles per rank (allgather) or the vector length (allreduce) on
  // topo.comm(), which must outlive this object.
  MpiNonblocking(const Topology& topo, Kind kind, std::int64_t count);
  // Completes an operation still in flight: MPI must not write freed buffers.
  ~MpiNonblocking() override;
  MpiNonblocking(const MpiNonblocking&) = delete;
  MpiNonblocking& operator=(const MpiNonblocking&) = delete;

  void* slot() override { return mine_.data(); }
  const void* result() const override { return all_.data(); }
  void run() override;
  void start() override;
  bool test() override;  // MPI_Test: true at once on a completed (null) request
  void wait() override;
  std::size_t bytes_per_node() const override;

 private:
  MPI_Comm comm_;
  Kind kind_;
  int count_;
  int node_size_;  // ranks on this rank's node: each holds its own buffers
  std::vector<double> mine_, all_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace hympi::overlap
