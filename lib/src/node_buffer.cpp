#include "hympi/node_buffer.hpp"

#include <sys/statvfs.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi {

namespace {
const char* shm_dir() {
  const char* dir = std::getenv("HYMPI_SHM_DIR");
  return dir && *dir ? dir : "/dev/shm";
}
std::string mib(double bytes) {
  return std::to_string(static_cast<long long>(bytes / (1 << 20))) + " MiB";
}
}  // namespace

long long shared_memory_available() {
  struct statvfs fs {};
  if (statvfs(shm_dir(), &fs) != 0) return -1;
  return static_cast<long long>(fs.f_bavail) * static_cast<long long>(fs.f_frsize);
}

void check_shared_memory(MPI_Comm comm, bool is_leader, std::size_t bytes) {
  long long available = is_leader ? shared_memory_available() : -1;
  bool fits = available < 0 || static_cast<long double>(bytes) <= static_cast<long double>(available);
  require_all(comm, fits,
              "a node-shared window of " + mib(static_cast<double>(bytes)) + " does not fit in " + shm_dir() +
                  (available >= 0 ? " (" + mib(static_cast<double>(available)) + " free on at least one node)" : "") +
                  "; enlarge it (mount -o remount,size=... " + shm_dir() +
                  ") or spread the ranks over more nodes. Nothing was allocated.",
              ErrorCode::out_of_memory);
}

NodeBuffer::NodeBuffer(const Topology& topo, std::size_t bytes) : topo_(&topo) {
  allocate(bytes);
}

NodeBuffer::~NodeBuffer() {
  release();
}

NodeBuffer::NodeBuffer(NodeBuffer&& other) noexcept {
  *this = std::move(other);
}

NodeBuffer& NodeBuffer::operator=(NodeBuffer&& other) noexcept {
  if (this != &other) {
    release();
    topo_ = other.topo_;
    win_ = other.win_;
    base_ = other.base_;
    capacity_ = other.capacity_;
    other.win_ = MPI_WIN_NULL;
    other.base_ = nullptr;
    other.capacity_ = 0;
  }
  return *this;
}

bool NodeBuffer::reserve(std::size_t bytes) {
  require(topo_ != nullptr, "NodeBuffer::reserve on an empty buffer");
  if (bytes <= capacity_ && win_ != MPI_WIN_NULL) return false;
  // Geometric growth: window creation is expensive, so avoid creating one per small step.
  std::size_t grown = std::max(bytes, capacity_ > std::numeric_limits<std::size_t>::max() / 2 ? bytes : 2 * capacity_);
  release();
  allocate(grown);
  return true;
}

void NodeBuffer::allocate(std::size_t bytes) {
  const bool leader = topo_->is_leader();
  require(bytes <= static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max()),
          "node-shared window of " + std::to_string(bytes) + " bytes is too large for MPI_Aint",
          ErrorCode::out_of_memory);
  // Checked before allocating: a too small /dev/shm otherwise shows up as SIGBUS at the first store.
  check_shared_memory(topo_->comm(), leader, bytes);

  const MPI_Aint size = leader ? static_cast<MPI_Aint>(std::max<std::size_t>(bytes, 64)) : 0;
  void* base = nullptr;
  HYMPI_CHECK_MPI(MPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, topo_->node_comm(), &base, &win_));
  MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN);
  if (!leader) {
    MPI_Aint leader_size = 0;
    int disp_unit = 0;
    HYMPI_CHECK_MPI(MPI_Win_shared_query(win_, 0, &leader_size, &disp_unit, &base));
  }
  base_ = static_cast<std::byte*>(base);
  capacity_ = bytes;

  // Load/store sharing needs the unified model. Some MPIs (SimGrid SMPI) cannot
  // answer the query; only a definite "separate" is an error.
  int* model = nullptr;
  int flag = 0;
  if (MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &flag) == MPI_SUCCESS && flag && *model != MPI_WIN_UNIFIED) {
    MPI_Win_free(&win_);
    base_ = nullptr;
    capacity_ = 0;
    throw Error(ErrorCode::unsupported, "hympi: this MPI gives shared windows the separate memory model");
  }
  HYMPI_CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
}

void NodeBuffer::sync_memory() const {
  if (win_ != MPI_WIN_NULL) MPI_Win_sync(win_);
}

void NodeBuffer::release() noexcept {
  if (win_ == MPI_WIN_NULL) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  win_ = MPI_WIN_NULL;
  base_ = nullptr;
  capacity_ = 0;
}

}  // namespace hympi
