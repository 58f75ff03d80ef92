// --vs-mpi (OSU mode): the wrapper's cost. Times the pure variant and the very
// MPI call it makes (in-place MPI_Allgather, MPI_Bcast, MPI_Allreduce,
// MPI_Reduce, MPI_Gather, MPI_Scatter on the same sizes, type and op) alternately, iteration by
// iteration, so that load on a shared machine hits both alike; prints the
// medians and their ratio (pure / MPI).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "hympi/topology.hpp"
#include "operation.hpp"

namespace hympi::bench {

// The MPI call the pure policy makes for `op` (allgather, bcast, allreduce, reduce, gather, scatter).
class PlainMpi {
 public:
  PlainMpi(std::string op, const BenchOptions& options, const Topology& topo);
  // `bytes` per rank (whole elements of --type for the reductions).
  void resize(std::int64_t bytes);
  // Writes this rank's contribution, as Operation::write() does for the variant
  // (the root's message, this rank's part, the send vector): once per size for
  // both, so their caches are in the same state.
  void write();
  void run();

 private:
  std::string op_;
  const BenchOptions& options_;
  const Topology& topo_;
  MPI_Datatype type_ = MPI_BYTE;
  MPI_Op mpi_op_ = MPI_OP_NULL;
  int count_ = 0;
  std::vector<unsigned char> send_, recv_, source_;
  unsigned char* contribution_ = nullptr;
};

struct Comparison {
  double hympi_us = 0, mpi_us = 0;  // per-rank medians, averaged over ranks
  double ratio() const { return mpi_us > 0 ? hympi_us / mpi_us : 0; }
};

// Collective: `iterations` (after `warmup`) of op and of mpi, alternating, each
// timed alone and followed by an untimed barrier, as OSU.
Comparison compare_with_mpi(Operation& op, PlainMpi& mpi, const Topology& topo, int iterations, int warmup);

}  // namespace hympi::bench
