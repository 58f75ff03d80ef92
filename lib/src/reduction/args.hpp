// Internal: the arguments of a reduction (count, datatype, op, root), checked on
// every rank and agreed between ranks before anything is allocated or sent.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace hympi {

class Topology;
struct CollectiveOptions;

namespace detail {

// The root of an allreduce: no rank, every rank gets the result.
constexpr int kEveryRank = -(1 << 30);

struct ReductionArgs {
  std::int64_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  int root = kEveryRank;   // kEveryRank (< 0): every rank gets the result
  std::size_t extent = 0;  // bytes between consecutive elements
  std::size_t bytes = 0;   // count * extent
};

class Agreement;

// Collective over topo.comm(): runs `agreement` (agreement.hpp) with these
// arguments' checks and values added. `what` names the collective in messages
// ("allreduce", "reduce"). Throws the same hympi::Error on every rank when any
// rank's arguments are invalid or differ between ranks.
ReductionArgs check_reduction_args(const Topology& topo, const char* what, std::int64_t count, MPI_Datatype type,
                                   MPI_Op op, int root, const CollectiveOptions& options, Agreement& agreement);

// inout[i] = in[i] op inout[i] for count elements (MPI_Reduce_local, in chunks of
// MPI's int counts).
void reduce_local(const void* in, void* inout, std::int64_t count, const ReductionArgs& args);

// Elements per MPI call: fits MPI's int counts.
constexpr std::int64_t kChunk = std::int64_t{1} << 30;

// Calls fn(offset, n) over [0, count) in pieces of at most kChunk elements.
template <class F>
void for_each_int_chunk(std::int64_t count, F&& fn) {
  for (std::int64_t offset = 0; offset < count; offset += kChunk)
    fn(offset, static_cast<int>(count - offset < kChunk ? count - offset : kChunk));
}

// [lo, hi) of part `i` of `parts` nearly equal parts of `count` elements.
inline std::int64_t part_begin(std::int64_t count, int parts, int i) {
  return count / parts * i + (i < count % parts ? i : count % parts);
}

}  // namespace detail
}  // namespace hympi
