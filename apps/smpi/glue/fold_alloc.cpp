// Memory folding for large simulated runs: 16384 simulated ranks each holding
// megabytes of matrix and panel blocks would need far more than the host has.
// Under SMPI the values do not matter when the compute is simulated, so every
// operator-new block of at least HYMPI_SMPI_FOLD_BYTES bytes requested by a
// simulated rank comes from SMPI_SHARED_MALLOC with one key per power-of-two size
// class: all such blocks of a class share the same physical pages (applied to
// std::vector & co. without touching the application sources), and SMPI skips the
// payload copy of messages whose buffers are shared (the host cost of big panels).
// All blocks of one class are ONE block, in every rank: they alias each other and
// are never freed (at most one per class), so results are garbage: only for timing runs
// (--check none). Unset or 0 = off (default), so correctness runs under SMPI see
// real, private memory.
#include <smpi/smpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <simgrid/s4u/Actor.hpp>

#ifdef malloc
#undef malloc
#endif
#ifdef free
#undef free
#endif

#include "fold_blocks.hpp"  // the process-wide block table (a shared library: not privatized)

namespace {

// HYMPI_SMPI_FOLD_NEW_BYTES when set (0: operator new folds nothing), else HYMPI_SMPI_FOLD_BYTES.
// Why a threshold of its own: a block from operator new may hold live objects, and a folded
// block is the same memory in every rank. The core's agreement keeps one std::string item per
// rank (56 B; a vector of 2048 of them, 114 KB, from 1024 ranks on): folded at 65536 B, every
// rank built its strings in the same block, and the heap broke at the next free (glibc "double
// free or corruption" at 1024 and 1536 ranks, not at 768: tests/smpi/check_fold_objects.sh).
// fold_shared.cpp's blocks (the core's result buffers, node windows) hold data only.
std::size_t fold_threshold() {
  static const std::size_t bytes = [] {
    const char* own = std::getenv("HYMPI_SMPI_FOLD_NEW_BYTES");
    const char* env = own ? own : std::getenv("HYMPI_SMPI_FOLD_BYTES");
    return env ? static_cast<std::size_t>(std::strtoull(env, nullptr, 10)) : std::size_t{0};
  }();
  return bytes;
}

void* allocate(std::size_t n) {
  const std::size_t threshold = fold_threshold();
  if (threshold > 0 && n >= threshold && !simgrid::s4u::Actor::is_maestro()) {
    if (void* p = hympi_smpi_fold_block_for(n)) return p;
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

void release(void* p) noexcept {
  if (p && !hympi_smpi_is_fold_block(p)) std::free(p);  // folded blocks live as long as the process
}

}  // namespace

void* operator new(std::size_t n) {
  return allocate(n);
}
void* operator new[](std::size_t n) {
  return allocate(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return operator new(n, t);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
