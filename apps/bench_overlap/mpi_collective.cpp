#include "mpi_collective.hpp"

#include "hympi/error.hpp"

namespace hympi::overlap {

MpiNonblocking::MpiNonblocking(const Topology& topo, Kind kind, std::int64_t count)
    : comm_(topo.comm()),
      kind_(kind),
      count_(static_cast<int>(count)),
      node_size_(topo.node_size()),
      mine_(count),
      all_(kind == Kind::allreduce_sum ? count : count * topo.size()) {}

MpiNonblocking::~MpiNonblocking() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

void MpiNonblocking::run() {
  start();
  wait();
}

void MpiNonblocking::start() {
  if (kind_ == Kind::allreduce_sum)
    HYMPI_CHECK_MPI(MPI_Iallreduce(mine_.data(), all_.data(), count_, MPI_DOUBLE, MPI_SUM, comm_, &request_));
  else
    HYMPI_CHECK_MPI(
        MPI_Iallgather(mine_.data(), count_, MPI_DOUBLE, all_.data(), count_, MPI_DOUBLE, comm_, &request_));
}

bool MpiNonblocking::test() {
  int done = 0;
  HYMPI_CHECK_MPI(MPI_Test(&request_, &done, MPI_STATUS_IGNORE));
  return done != 0;
}

void MpiNonblocking::wait() {
  HYMPI_CHECK_MPI(MPI_Wait(&request_, MPI_STATUS_IGNORE));
}

std::size_t MpiNonblocking::bytes_per_node() const {
  return static_cast<std::size_t>(node_size_) * (mine_.size() + all_.size()) * sizeof(double);
}

}  // namespace hympi::overlap
