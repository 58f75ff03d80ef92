#include "plain_mpi.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "reduce_types.hpp"

namespace hympi::bench {

PlainMpi::PlainMpi(std::string op, const BenchOptions& options, const Topology& topo)
    : op_(std::move(op)), options_(options), topo_(topo) {
  if (op_ == "allreduce" || op_ == "reduce") {
    type_ = mpi_type_of(options.reduction.type);
    mpi_op_ = mpi_op_of(options.reduction.op);
  }
}

void PlainMpi::resize(std::int64_t bytes) {
  const bool reduces = mpi_op_ != MPI_OP_NULL;
  const std::int64_t element = reduces ? static_cast<std::int64_t>(bytes_of(options_.reduction.type)) : 1;
  count_ = static_cast<int>(bytes / element);
  const int p = topo_.size();
  if (op_ == "allgather") {
    recv_.assign(static_cast<std::size_t>(bytes) * p, 1);
    contribution_ = recv_.data() + static_cast<std::size_t>(bytes) * topo_.rank();
  } else if (op_ == "gather" || op_ == "scatter") {
    // The pure policy's buffers: the root's whole vector, one part elsewhere.
    const bool root = topo_.rank() == options_.root;
    const std::size_t whole = static_cast<std::size_t>(bytes) * p;
    send_.assign(op_ == "scatter" && root ? whole : static_cast<std::size_t>(bytes), 1);
    recv_.assign(op_ == "gather" && root ? whole : static_cast<std::size_t>(bytes), 0);
    contribution_ = op_ == "gather" || root ? send_.data() : nullptr;
    source_.assign(contribution_ ? send_.size() : 0, 2);
    return;
  } else {
    send_.assign(static_cast<std::size_t>(bytes), 1);
    recv_.assign(static_cast<std::size_t>(bytes), 0);
    const bool contributes = op_ != "bcast" || topo_.rank() == options_.root;
    contribution_ = contributes ? send_.data() : nullptr;
  }
  source_.assign(contribution_ ? static_cast<std::size_t>(bytes) : 0, 2);
}

void PlainMpi::write() {
  if (contribution_ && !source_.empty()) std::memcpy(contribution_, source_.data(), source_.size());
}

void PlainMpi::run() {
  const MPI_Comm comm = topo_.comm();
  if (op_ == "allgather")
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv_.data(), count_, MPI_BYTE, comm);
  else if (op_ == "bcast")
    MPI_Bcast(send_.data(), count_, MPI_BYTE, options_.root, comm);
  else if (op_ == "gather")
    MPI_Gather(send_.data(), count_, MPI_BYTE, recv_.data(), count_, MPI_BYTE, options_.root, comm);
  else if (op_ == "scatter")
    MPI_Scatter(send_.data(), count_, MPI_BYTE, recv_.data(), count_, MPI_BYTE, options_.root, comm);
  else if (op_ == "allreduce")
    MPI_Allreduce(send_.data(), recv_.data(), count_, type_, mpi_op_, comm);
  else
    MPI_Reduce(send_.data(), recv_.data(), count_, type_, mpi_op_, options_.root, comm);
}

namespace {
double median_over_ranks(std::vector<double>& times, MPI_Comm comm, int ranks) {
  double median = 0;
  if (!times.empty()) {
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    median = times[times.size() / 2] * 1e6;
  }
  MPI_Allreduce(MPI_IN_PLACE, &median, 1, MPI_DOUBLE, MPI_SUM, comm);
  return median / ranks;
}
}  // namespace

Comparison compare_with_mpi(Operation& op, PlainMpi& mpi, const Topology& topo, int iterations, int warmup) {
  const MPI_Comm comm = topo.comm();
  std::vector<double> ours, theirs;
  ours.reserve(static_cast<std::size_t>(iterations));
  theirs.reserve(static_cast<std::size_t>(iterations));
  op.write();  // once, as OSU mode's measure()
  mpi.write();
  MPI_Barrier(comm);
  // Each timed alone, then an untimed barrier; who goes first alternates (no order bias).
  const auto timed = [&](auto&& call, std::vector<double>& into, bool keep) {
    const double start = MPI_Wtime();
    call();
    const double stop = MPI_Wtime();
    if (keep) into.push_back(stop - start);
    MPI_Barrier(comm);
  };
  for (int it = 0; it < warmup + iterations; ++it) {
    const bool keep = it >= warmup;
    if (it % 2 == 0) {
      timed([&] { op.exchange(); }, ours, keep);
      timed([&] { mpi.run(); }, theirs, keep);
    } else {
      timed([&] { mpi.run(); }, theirs, keep);
      timed([&] { op.exchange(); }, ours, keep);
    }
  }
  return {median_over_ranks(ours, comm, topo.size()), median_over_ranks(theirs, comm, topo.size())};
}

}  // namespace hympi::bench
