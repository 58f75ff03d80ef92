#include "hympi/node_buffer.hpp"

#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi {

namespace {

// The directory of the file MPI mapped at `address` (from /proc/self/maps), or "".
std::string backing_directory_of(const void* address) {
  std::ifstream maps("/proc/self/maps");
  const auto target = reinterpret_cast<std::uintptr_t>(address);
  for (std::string line; std::getline(maps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) != 2 || target < lo || target >= hi) continue;
    const auto path = line.find('/');
    if (path == std::string::npos) return "";
    const std::string file = line.substr(path);
    return file.substr(0, file.rfind('/'));
  }
  return "";
}

// Where shared windows live: what the user says, else what the last window showed
// (/proc/self/maps), else Open MPI's osc_sm_backing_directory, else /dev/shm.
std::string& learned_directory() {
  static std::string dir;
  return dir;
}

std::string mib(double bytes) {
  return std::to_string(static_cast<long long>(bytes / (1 << 20))) + " MiB";
}

// Faults in every page of [data, data + bytes) for writing, so tmpfs allocates
// them now: a full file system gives an error here instead of SIGBUS at the first
// store. Returns errno, 0 on success; EINVAL means the kernel cannot (< 5.14).
int populate(std::byte* data, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  if (bytes == 0) return 0;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto lo = reinterpret_cast<std::uintptr_t>(data) / page * page;
  const auto hi = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) / page * page;
  return madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE) == 0 ? 0 : errno;
#else
  (void)data;
  (void)bytes;
  return EINVAL;
#endif
}

// Releases the backing pages of a range populate() faulted in (MADV_REMOVE).
void punch_out(std::byte* data, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto lo = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto hi = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_REMOVE);
}

}  // namespace

std::string shared_memory_directory() {
  if (const char* dir = std::getenv("HYMPI_SHM_DIR"); dir && *dir) return dir;
  if (!learned_directory().empty()) return learned_directory();
  if (const char* dir = std::getenv("OMPI_MCA_osc_sm_backing_directory"); dir && *dir) return dir;
  return "/dev/shm";
}

long long shared_memory_available() {
  struct statvfs fs {};
  if (statvfs(shared_memory_directory().c_str(), &fs) != 0) return -1;
  return static_cast<long long>(fs.f_bavail) * static_cast<long long>(fs.f_frsize);
}

// Room left for what the MPI itself keeps in the same file system (Open MPI's and
// MPICH's own shared segments are sparse too and fault pages in as they go):
// filling it to the last page would move the SIGBUS into the MPI.
long long headroom(const std::string& dir) {
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) != 0) return 0;
  const long long size = static_cast<long long>(fs.f_blocks) * static_cast<long long>(fs.f_frsize);
  return std::max(8LL << 20, size / 16);
}

void check_shared_memory(const Topology& topo, std::size_t bytes) {
  // Every emulated node of this host allocates now: their windows share one file system.
  unsigned long long mine = topo.is_leader() ? bytes : 0, on_host = 0;
  HYMPI_CHECK_MPI(MPI_Allreduce(&mine, &on_host, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, topo.host_comm()));
  int host_rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(topo.host_comm(), &host_rank));
  const std::string dir = shared_memory_directory();
  const long long available = host_rank == 0 ? shared_memory_available() : -1;
  const long long usable = available < 0 ? -1 : std::max(0LL, available - headroom(dir));
  const bool fits = usable < 0 || static_cast<long double>(on_host) <= static_cast<long double>(usable);
  require_all(topo.comm(), fits,
              "a node-shared window of " + mib(static_cast<double>(bytes)) + " per node (" +
                  mib(static_cast<double>(on_host)) + " for all nodes of this host) does not fit in " + dir + " (" +
                  mib(static_cast<double>(usable)) + " usable: " + mib(static_cast<double>(available)) +
                  " free minus room for the MPI's own segments); enlarge it (mount -o remount,size=... " + dir +
                  ") or spread the ranks over more nodes. Nothing was allocated.",
              ErrorCode::out_of_memory);
}

NodeBuffer::NodeBuffer(const Topology& topo) : topology_owner_(topo.keep_alive()), topo_(&topo) {}

NodeBuffer::NodeBuffer(const Topology& topo, std::size_t bytes) : NodeBuffer(topo) {
  topo.require_comm_alive("node buffer");
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
    topology_owner_ = other.topology_owner_;  // copied: a moved-from buffer stays bound, and safe
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

// Strong guarantee: the new window is created while the old one lives, so a
// failure (agreed on every rank) leaves this buffer exactly as it was.
bool NodeBuffer::reserve(std::size_t bytes) {
  require(topo_ != nullptr, "NodeBuffer::reserve on an empty buffer");
  topo_->require_comm_alive("node buffer reserve()");
  if (bytes <= capacity_ && win_ != MPI_WIN_NULL) return false;
  // Geometric growth: window creation is expensive, so avoid creating one per small step.
  const std::size_t grown =
      std::max(bytes, capacity_ > std::numeric_limits<std::size_t>::max() / 2 ? bytes : 2 * capacity_);
  NodeBuffer fresh(*topo_);
  try {
    fresh.allocate(grown);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::out_of_memory || grown == bytes) throw;
    fresh.allocate(bytes);  // the doubling did not fit; the request itself may
  }
  *this = std::move(fresh);
  return true;
}

void NodeBuffer::allocate(std::size_t bytes) {
  const bool leader = topo_->is_leader();
  require_all(topo_->comm(), bytes <= static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max()),
              "node-shared window of " + std::to_string(bytes) + " bytes is too large for MPI_Aint",
              ErrorCode::out_of_memory);
  // A cheap early refusal; populate() below is the real check.
  check_shared_memory(*topo_, bytes);

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
  const bool separate =
      MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &flag) == MPI_SUCCESS && flag && *model != MPI_WIN_UNIFIED;
  if (separate) {
    MPI_Win_free(&win_);
    base_ = nullptr;
    capacity_ = 0;
    throw Error(ErrorCode::unsupported, "hympi: this MPI gives shared windows the separate memory model");
  }
  reserve_pages(bytes);
  HYMPI_CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
}

// The free-space check before allocation cannot see other windows and emulated
// nodes of the same host filling the same file system concurrently, nor sparse
// windows. So every page is allocated now, each node rank faulting in an equal
// share (in parallel; pages land near their rank), and the outcome is agreed
// over the communicator: a full file system is a clear error on every rank, the
// window is freed and the process goes on; never a SIGBUS later.
void NodeBuffer::reserve_pages(std::size_t bytes) {
  const auto n = static_cast<std::size_t>(topo_->node_size()), i = static_cast<std::size_t>(topo_->node_rank());
  const std::size_t share = (bytes + n - 1) / n, lo = std::min(bytes, i * share), hi = std::min(bytes, lo + share);
  const int err = populate(base_ + lo, hi - lo);
  // Give the pages back at once: the MPI's own segments need the room while we agree.
  if (err != 0 && err != EINVAL) punch_out(base_ + lo, hi - lo);
  if (topo_->is_leader() && bytes > 0) learned_directory() = backing_directory_of(base_);
  const bool full = err != 0 && err != EINVAL;  // EINVAL: the kernel cannot; the early check stands alone
  std::optional<Error> error;
  if (full) {
    const std::string dir = shared_memory_directory();
    error.emplace(ErrorCode::out_of_memory,
                  "hympi: a node-shared window of " + mib(static_cast<double>(bytes)) + " does not fit in " + dir +
                      " (" + mib(static_cast<double>(std::max(shared_memory_available(), 0LL))) +
                      " free now, counting every window of every node on this host: " + std::strerror(err) +
                      "); enlarge it (mount -o remount,size=... " + dir +
                      ") or spread the ranks over more nodes. The window was released.");
  }
  try {
    agree(topo_->comm(), error ? &*error : nullptr);
  } catch (...) {
    MPI_Win_free(&win_);
    base_ = nullptr;
    capacity_ = 0;
    throw;
  }
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
