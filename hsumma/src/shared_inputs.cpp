#include "shared_inputs.hpp"

#include <algorithm>
#include <cstring>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"

#ifdef HYMPI_SMPI_COSTS
extern "C" void hympi_smpi_charge_copy(std::size_t bytes);  // the SimGrid build's glue
#endif

namespace hympi::hsumma {

namespace {

std::int64_t aligned(std::int64_t doubles) {
  return (doubles + 7) / 8 * 8;  // 64-byte blocks: owners never share a cache line
}

// Sizes (in doubles) of the A and B blocks of every node rank, in node-rank order.
std::vector<std::int64_t> node_block_sizes(const Topology& topo, std::int64_t a_elems, std::int64_t b_elems) {
  std::int64_t mine[2] = {a_elems, b_elems};
  std::vector<std::int64_t> sizes(2 * topo.node_size());
  HYMPI_CHECK_MPI(MPI_Allgather(mine, 2, MPI_INT64_T, sizes.data(), 2, MPI_INT64_T, topo.node_comm()));
  return sizes;
}

std::int64_t generation_doubles(const std::vector<std::int64_t>& sizes) {
  std::int64_t total = 0;
  for (const auto s : sizes) total += aligned(s);
  return total;
}

}  // namespace

SharedInputs::SharedInputs(const Topology& topo, SyncKind sync, std::int64_t a_elems, std::int64_t b_elems,
                           const std::vector<std::int64_t>& sizes)
    : topo_(topo),
      window_(topo, static_cast<std::size_t>(2 * generation_doubles(sizes)) * sizeof(double), Policy::hybrid, sync),
      offset_(topo.size()),
      a_elems_(a_elems),
      b_elems_(b_elems) {
  for (int i = 0; i < topo.node_size(); ++i) {
    Offsets& o = offset_[topo.node_ranks()[i]];
    o.a = generation_size_;
    generation_size_ += aligned(sizes[2 * i]);
    o.b = generation_size_;
    generation_size_ += aligned(sizes[2 * i + 1]);
  }
}

SharedInputs::SharedInputs(const Topology& topo, SyncKind sync, std::int64_t a_elems, std::int64_t b_elems)
    : SharedInputs(topo, sync, a_elems, b_elems, node_block_sizes(topo, a_elems, b_elems)) {}

void SharedInputs::publish(const double* A, const double* B) {
  generation_ ^= 1;
  const Offsets& mine = offset_[topo_.rank()];
  double* base = reinterpret_cast<double*>(window_.mutable_data());
  if (a_elems_ > 0) std::memcpy(base + mine.a + generation_offset(), A, sizeof(double) * a_elems_);
  if (b_elems_ > 0) std::memcpy(base + mine.b + generation_offset(), B, sizeof(double) * b_elems_);
#ifdef HYMPI_SMPI_COSTS  // the simulator charges the copy into the node window (apps/smpi/glue/onnode_cost.cpp)
  hympi_smpi_charge_copy(sizeof(double) * static_cast<std::size_t>(a_elems_ + b_elems_));
#endif
  window_.publish();
}

}  // namespace hympi::hsumma
