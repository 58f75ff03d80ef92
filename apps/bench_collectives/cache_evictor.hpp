// Cold-cache mode (--cache cold): Open MPI's xhc documentation warns that OSU reuses one
// buffer every iteration and so overstates shared-memory speed. Between timed iterations,
// untimed, every rank writes its share of a buffer twice the size of the machine's last-level
// cache (shared by the ranks on this host), so each iteration starts with the collective's
// buffers evicted. The bytes written and the passes made are reported with every row.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hympi::bench {

// Bytes of the largest data or unified cache of CPU 0 (sysfs); `fallback` when unreadable.
std::size_t last_level_cache_bytes(const std::string& sysfs_cpu = "/sys/devices/system/cpu/cpu0",
                                   std::size_t fallback = std::size_t{32} << 20);

class CacheEvictor {
 public:
  // Collective over `world`: the ranks sharing this host's cache split 2 x LLC between them.
  explicit CacheEvictor(MPI_Comm world);
  // Reads and writes every cache line of this rank's share.
  void evict();
  std::size_t llc_bytes() const { return llc_; }
  std::size_t bytes_per_pass() const { return buffer_.size(); }  // this rank's share
  int host_ranks() const { return host_ranks_; }
  std::int64_t passes() const { return passes_; }

 private:
  std::size_t llc_ = 0;
  int host_ranks_ = 1;
  std::vector<unsigned char> buffer_;
  std::int64_t passes_ = 0;
};

}  // namespace hympi::bench
