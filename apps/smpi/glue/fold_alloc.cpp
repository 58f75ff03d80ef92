// Memory folding for large simulated runs: 16384 simulated ranks each holding
// megabytes of matrix and panel blocks would need far more than the host has.
// Under SMPI the values do not matter when the compute is simulated, so every
// operator-new block of at least HYMPI_SMPI_FOLD_BYTES bytes requested by a
// simulated rank is served from ONE shared mapping per power-of-two size class
// (the same idea as SMPI_SHARED_MALLOC, applied to std::vector & co. without
// touching the application sources). Such blocks alias each other, so results
// are garbage: only for timing runs (--check none). Unset or 0 = off (default),
// so correctness runs under SMPI see real, private memory.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <simgrid/s4u/Actor.hpp>

#ifdef malloc
#undef malloc
#endif
#ifdef free
#undef free
#endif

namespace {

constexpr int kClasses = 48;
struct Mapping {
  char* base = nullptr;
  std::size_t size = 0;
};
Mapping g_classes[kClasses];
std::mutex g_mutex;

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
  std::lock_guard<std::mutex> lock(g_mutex);
  Mapping& m = g_classes[c];
  if (!m.base) {
    const std::size_t size = std::size_t{1} << c;
    // Anonymous shared memory: physical pages only for what is touched, once.
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    m.base = static_cast<char*>(p);
    m.size = size;
  }
  return m.base;
}

bool folded(const void* p) {
  const char* q = static_cast<const char*>(p);
  for (const Mapping& m : g_classes)
    if (m.base && q >= m.base && q < m.base + m.size) return true;
  return false;
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
  if (p && !folded(p)) std::free(p);
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
