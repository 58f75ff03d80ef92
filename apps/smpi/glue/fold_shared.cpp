// Memory folding beyond operator new (fold_alloc.cpp), for timing runs at thousands of
// simulated ranks: with HYMPI_SMPI_FOLD_SCOPE=all (default `new`: only fold_alloc.cpp's
// blocks), blocks of at least HYMPI_SMPI_FOLD_BYTES bytes from
//  * aligned_alloc: the core's private buffers (page_buffer.hpp), e.g. the pure policy's
//    allgather result, P x count elements on every rank: at 1536 ranks and 16384 doubles
//    201 MB per rank, 309 GB in all;
//  * MPI_Win_allocate_shared: the hybrid policy's node windows (SMPI mallocs them per
//    node: 64 nodes x 2 x 201 MB at the same point)
// come from the process-wide SMPI-shared blocks of fold_blocks.cpp: one physical copy
// for every rank and node, and SMPI skips the payload copy of every message into or out
// of them. Data are garbage (the blocks alias): timing runs only, no --validate. Simulated
// times do not change: SMPI charges a message by its size, not by its copy
// (tests/smpi/check_fold.py compares a run folded and not).
//
// Linked with -Wl,--wrap=aligned_alloc,--wrap=smpi_shared_free (project/CMakeLists.txt):
// smpicxx turns the core's std::free into smpi_shared_free, which would unmap a shared
// block; a folded block is never freed (fold_alloc.cpp's rule). Windows are folded by
// PMPI wrappers: the leader's segment decides (a node's flag window, 64 B per rank, stays
// real: it carries the node synchronization), MPI_Win_shared_query returns the block.
#include <mpi.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <simgrid/s4u/Actor.hpp>

#include "fold_blocks.hpp"

extern "C" void* __real_aligned_alloc(std::size_t alignment, std::size_t bytes);
extern "C" void __real_smpi_shared_free(void* p);

namespace {

// HYMPI_SMPI_FOLD_BYTES when HYMPI_SMPI_FOLD_SCOPE=all, else 0 (off).
std::size_t fold_threshold() {
  static const std::size_t bytes = [] {
    const char* scope = std::getenv("HYMPI_SMPI_FOLD_SCOPE");
    const char* env = std::getenv("HYMPI_SMPI_FOLD_BYTES");
    if (!scope || std::strcmp(scope, "all") != 0 || !env) return std::size_t{0};
    return static_cast<std::size_t>(std::strtoull(env, nullptr, 10));
  }();
  return bytes;
}

bool folds(std::size_t bytes) {
  const std::size_t threshold = fold_threshold();
  return threshold > 0 && bytes >= threshold && !simgrid::s4u::Actor::is_maestro();
}

// This rank's folded windows (a global of the program: SMPI keeps one per rank). Never
// destroyed: an exit-time destructor would run once per rank on one copy.
std::map<MPI_Win, void*>& folded_windows() {
  static auto* windows = new std::map<MPI_Win, void*>;
  return *windows;
}

}  // namespace

extern "C" void* __wrap_aligned_alloc(std::size_t alignment, std::size_t bytes) {
  if (alignment <= 4096 && folds(bytes))  // blocks are mmap'd: page aligned
    if (void* block = hympi_smpi_fold_block_for(bytes)) return block;
  return __real_aligned_alloc(alignment, bytes);
}

extern "C" void __wrap_smpi_shared_free(void* p) {
  if (!hympi_smpi_is_fold_block(p)) __real_smpi_shared_free(p);
}

// SMPI mallocs size x ranks at the communicator's rank 0 and gives rank r the base
// start + r x size (its own size); the block replaces that whole allocation.
extern "C" int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                       MPI_Win* win) {
  const int rc = PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
  if (rc != MPI_SUCCESS || fold_threshold() == 0) return rc;
  MPI_Aint leader_size = 0;
  int unit = 0, rank = 0, ranks = 1;
  void* leader_base = nullptr;
  if (PMPI_Win_shared_query(*win, 0, &leader_size, &unit, &leader_base) != MPI_SUCCESS) return rc;
  if (leader_size <= 0 || !folds(static_cast<std::size_t>(leader_size))) return rc;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &ranks);
  void* block = hympi_smpi_fold_block_for(static_cast<std::size_t>(leader_size) * static_cast<std::size_t>(ranks));
  if (!block) return rc;
  folded_windows()[*win] = block;
  *static_cast<void**>(baseptr) = static_cast<char*>(block) + static_cast<std::size_t>(rank) * size;
  return rc;
}

// SMPI answers the start of the allocation for every rank (apps/smpi/README.md): so does this.
extern "C" int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  const int rc = PMPI_Win_shared_query(win, rank, size, disp_unit, baseptr);
  const auto it = folded_windows().find(win);
  if (rc == MPI_SUCCESS && it != folded_windows().end()) *static_cast<void**>(baseptr) = it->second;
  return rc;
}

extern "C" int MPI_Win_free(MPI_Win* win) {
  folded_windows().erase(*win);
  return PMPI_Win_free(win);
}
