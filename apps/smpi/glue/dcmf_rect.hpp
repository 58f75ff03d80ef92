// BG/P's rectangle broadcast (CCMI's multi-color rectangle schedule) simulated on the
// bgp platform (SMPI builds only). What it models and why it is made of SimGrid messages
// of its own: apps/smpi/README.md, "BG/P's broadcast (DCMF)".
#pragma once
#include <mpi.h>

#include <cstdint>

#include "dcmf_shape.hpp"

namespace hympi_sim::dcmf {

// What the DCMF layer knows about a communicator (the source computes it when the
// communicator is created; here at its first broadcast, with one small allreduce).
struct CommInfo {
  CommShape shape;
  Coords me;                       // this rank's (x, y, z, t)
  int dims[kAxes] = {1, 1, 1};     // the partition
  bool partition_wraps[kAxes] = {};
  bool wraps[kAxes] = {};          // the rectangle spans a whole wrapping axis (isTorusX ...)
  std::uint64_t key = 0;           // the same on every member; differs between communicators sharing a rank
  std::uint64_t seq = 0;           // broadcasts on this communicator so far
  int rank = 0, size = 0, world_size = 0;
  MPI_Group group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
};

// Computes comm's CommInfo (collective over comm: one MPI_Allreduce of 9 ints, as the
// source's two at communicator creation). Exits with a clear message off a bgp platform.
void describe(MPI_Comm comm, CommInfo& info);

// The rectangle broadcast of bytes at buf from comm rank root (every member calls it; the
// communicator must be RECT). one_color: the asynchronous protocol's single color.
void bcast_rectangle(char* buf, long long bytes, int root, CommInfo& info, bool one_color);

}  // namespace hympi_sim::dcmf
