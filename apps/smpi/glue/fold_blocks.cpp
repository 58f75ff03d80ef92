// The process-wide table behind fold_alloc.cpp: one SMPI-shared block per
// power-of-two size class, handed to every simulated rank and never freed.
// It is a shared library of its own because SMPI privatizes the executable's
// globals per simulated rank: a table there would be one table per rank, and
// every rank would map (and page-fault in) its own copy of each block. At 1024
// ranks that page-fault storm was 60% of the host time.
#include "fold_blocks.hpp"

#include <smpi/smpi.h>

#include <atomic>
#include <cstddef>
#include <mutex>

namespace {

constexpr int kClasses = 48;
const char* const kFoldKey = "hympi-fold-size-class";
std::mutex g_mutex;  // serializes creation only
// Atomic slots: every operator delete asks whether its pointer is a block, and
// that check must not take a lock on the hot path.
std::atomic<void*> g_blocks[kClasses] = {};

}  // namespace

extern "C" void* hympi_smpi_fold_block(int size_class) {
  if (size_class < 0 || size_class >= kClasses) return nullptr;
  if (void* block = g_blocks[size_class].load(std::memory_order_acquire)) return block;
  std::lock_guard<std::mutex> lock(g_mutex);
  void* block = g_blocks[size_class].load(std::memory_order_acquire);
  if (!block) {
    // From SMPI_SHARED_MALLOC, so SMPI knows the block is shared and skips the
    // payload copy of messages sent from or into it.
    block = smpi_shared_malloc(std::size_t{1} << size_class, kFoldKey, size_class);
    g_blocks[size_class].store(block, std::memory_order_release);
  }
  return block;
}

extern "C" void* hympi_smpi_fold_block_for(std::size_t bytes) {
  int size_class = 12;  // at least one page
  while ((std::size_t{1} << size_class) < bytes) ++size_class;
  return hympi_smpi_fold_block(size_class);
}

extern "C" int hympi_smpi_is_fold_block(const void* p) {
  if (!p) return 0;
  for (const auto& block : g_blocks)
    if (block.load(std::memory_order_acquire) == p) return 1;
  return 0;
}
