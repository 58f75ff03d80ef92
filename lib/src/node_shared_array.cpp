#include "hympi/node_shared_array.hpp"

#include <mpi.h>

#include <algorithm>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi {

namespace {

// Runs `work` and agrees on its outcome over `comm`: any exception on any rank
// becomes the same hympi::Error on every rank, so no rank is left in a later sync.
template <class Work>
void agreed(MPI_Comm comm, Work&& work) {
  std::optional<Error> error;
  try {
    work();
  } catch (const Error& e) {
    error = e;
  } catch (const std::bad_alloc&) {
    error.emplace(ErrorCode::out_of_memory, "hympi: out of memory while filling a node-shared array");
  } catch (const std::exception& e) {
    error.emplace(ErrorCode::invalid_argument, std::string("hympi: filling a node-shared array failed: ") + e.what());
  }
  agree(comm, error ? &*error : nullptr);
}

}  // namespace

NodeSharedArray::NodeSharedArray(const Topology& topo, std::size_t bytes, Policy policy, SyncKind sync)
    : topology_owner_(topo.keep_alive()), topo_(topo), policy_(policy), bytes_(bytes), window_(topo) {
  require_comm_alive("constructor");
  // A node's ranks index the same bytes: a size that differs would read past the end.
  unsigned long long mine[2] = {bytes, ~static_cast<unsigned long long>(bytes)}, node[2] = {0, 0};
  HYMPI_CHECK_MPI(MPI_Allreduce(mine, node, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, topo.node_comm()));
  const unsigned long long largest = node[0], smallest = ~node[1];
  require_all(topo.comm(), largest == smallest,
              "hympi: the ranks of a node asked for node-shared arrays of different sizes (" +
                  std::to_string(smallest) + " and " + std::to_string(largest) + " bytes)");
  if (shared()) {
    window_.reserve(std::max<std::size_t>(bytes, 1));  // collective; out_of_memory on every rank
    sync_ = NodeSync::create(sync, topo, &window_);
    data_ = window_.data();
  } else {
    agreed(topo.comm(), [&] { private_.reset(new std::byte[std::max<std::size_t>(bytes, 1)]); });
    data_ = private_.get();
  }
}

NodeSharedArray::~NodeSharedArray() = default;

// Every rank freed the communicator (MPI_Comm_free is collective): all throw alike.
void NodeSharedArray::require_comm_alive(const char* call) const {
  if (!topo_.comm_alive()) topo_.require_comm_alive((std::string("node-shared array ") + call).c_str());
}

bool NodeSharedArray::writer() const {
  require_comm_alive("writer()");
  return !shared() || topo_.is_leader();
}

std::size_t NodeSharedArray::bytes_per_node() const {
  require_comm_alive("bytes_per_node()");
  return shared() ? bytes_ : bytes_ * static_cast<std::size_t>(topo_.node_size());
}

void NodeSharedArray::fill_by_leader(const std::function<void(std::byte*, std::size_t)>& load) {
  require_comm_alive("fill_by_leader()");
  wait_for_readers();
  agreed(topo_.comm(), [&] {
    if (writer()) load(data_, bytes_);
  });
  publish();
}

void NodeSharedArray::fill_cooperatively(const std::function<void(std::byte*, std::size_t, std::size_t)>& fill,
                                         std::size_t granule) {
  require_comm_alive("fill_cooperatively()");
  require_all(topo_.comm(), granule > 0, "hympi: fill_cooperatively needs a granule of at least one byte");
  const std::size_t writers = shared() ? static_cast<std::size_t>(topo_.node_size()) : 1;
  const std::size_t me = shared() ? static_cast<std::size_t>(topo_.node_rank()) : 0;
  const std::size_t granules = (bytes_ + granule - 1) / granule, share = (granules + writers - 1) / writers;
  const std::size_t begin = std::min(bytes_, me * share * granule), end = std::min(bytes_, begin + share * granule);
  wait_for_readers();
  agreed(topo_.comm(), [&] {
    if (begin < end) fill(data_, begin, end);
  });
  publish();
}

void NodeSharedArray::publish() {
  require_comm_alive("publish()");
  if (!shared()) return;  // private memory: program order is enough
  const double t0 = MPI_Wtime();
  sync_->full();  // MPI_Win_sync around a node barrier (unified model)
  publish_seconds_ += MPI_Wtime() - t0;
  published_ = true;
}

// A refill must not overwrite bytes a node neighbour is still reading.
void NodeSharedArray::wait_for_readers() {
  if (shared() && published_) sync_->full();
}

}  // namespace hympi
