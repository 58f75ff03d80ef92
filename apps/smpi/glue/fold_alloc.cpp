// Memory folding for large simulated runs: 16384 simulated ranks each holding
// megabytes of matrix and panel blocks would need far more than the host has.
// Under SMPI the values do not matter when the compute is simulated, so every
// operator-new block of at least HYMPI_SMPI_FOLD_BYTES bytes requested by a
// simulated rank comes from SMPI_SHARED_MALLOC with one key per power-of-two size
// class: all such blocks of a class share the same physical pages (applied to
// std::vector & co. without touching the application sources), and SMPI skips the
// payload copy of messages whose buffers are shared (the host cost of big panels).
// Such blocks alias each other, so results are garbage: only for timing runs
// (--check none). Unset or 0 = off (default), so correctness runs under SMPI see
// real, private memory.
#include <smpi/smpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <simgrid/s4u/Actor.hpp>
#include <unordered_set>

#ifdef malloc
#undef malloc
#endif
#ifdef free
#undef free
#endif

namespace {

constexpr int kClasses = 48;
const char* const kFoldKey = "hympi-fold-size-class";
std::mutex g_mutex;
// The bookkeeping allocates with malloc: through operator new it would re-enter
// itself (and deadlock on g_mutex) whenever a node is freed.
template <class T>
struct MallocAllocator {
  using value_type = T;
  MallocAllocator() = default;
  template <class U>
  MallocAllocator(const MallocAllocator<U>&) {}
  T* allocate(std::size_t n) {
    if (void* p = std::malloc(n * sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, std::size_t) { std::free(p); }
  template <class U>
  bool operator==(const MallocAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const MallocAllocator<U>&) const {
    return false;
  }
};
using FoldedSet = std::unordered_set<void*, std::hash<void*>, std::equal_to<void*>, MallocAllocator<void*>>;
// Blocks to give back with smpi_shared_free. Never destroyed: SimGrid frees
// memory after static destructors have run.
FoldedSet& folded_set() {
  static FoldedSet* set = new (std::malloc(sizeof(FoldedSet))) FoldedSet;
  return *set;
}

std::size_t fold_threshold() {
  static const std::size_t bytes = [] {
    const char* env = std::getenv("HYMPI_SMPI_FOLD_BYTES");
    return env ? static_cast<std::size_t>(std::strtoull(env, nullptr, 10)) : std::size_t{0};
  }();
  return bytes;
}

int size_class(std::size_t n) {
  int c = 12;  // at least one page
  while ((std::size_t{1} << c) < n) ++c;
  return c;
}

void* fold(std::size_t n) {
  const int c = size_class(n);
  if (c >= kClasses) return nullptr;
  // The key (file, line) = (kFoldKey, class): SMPI's local mode maps the same
  // backing file for every block of one class.
  void* p = smpi_shared_malloc(std::size_t{1} << c, kFoldKey, c);
  if (!p) return nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  folded_set().insert(p);
  return p;
}

bool unfold(void* p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return folded_set().erase(p) != 0;
}

void* allocate(std::size_t n) {
  const std::size_t threshold = fold_threshold();
  if (threshold > 0 && n >= threshold && !simgrid::s4u::Actor::is_maestro()) {
    if (void* p = fold(n)) return p;
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

void release(void* p) noexcept {
  if (!p) return;
  if (unfold(p))
    smpi_shared_free(p);
  else
    std::free(p);
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
