#include "cache_evictor.hpp"

#include <cstdlib>
#include <fstream>

namespace hympi::bench {

namespace {

constexpr std::size_t kLine = 64;  // bytes of a cache line

// "32768K", "1M", "512" (sysfs cache size) in bytes; 0 when unparsable.
std::size_t parse_cache_size(const std::string& text) {
  std::size_t pos = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &pos);
  } catch (...) {
    return 0;
  }
  const char unit = pos < text.size() ? text[pos] : ' ';
  if (unit == 'K') return value << 10;
  if (unit == 'M') return value << 20;
  if (unit == 'G') return value << 30;
  return value;
}

std::string read_word(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  in >> word;
  return word;
}

}  // namespace

std::size_t last_level_cache_bytes(const std::string& sysfs_cpu, std::size_t fallback) {
  int best_level = 0;
  std::size_t best = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = sysfs_cpu + "/cache/index" + std::to_string(index) + "/";
    const std::string level = read_word(dir + "level");
    if (level.empty()) continue;
    if (read_word(dir + "type") == "Instruction") continue;
    const int lvl = std::atoi(level.c_str());
    const std::size_t size = parse_cache_size(read_word(dir + "size"));
    if (size > 0 && (lvl > best_level || (lvl == best_level && size > best))) {
      best_level = lvl;
      best = size;
    }
  }
  return best > 0 ? best : fallback;
}

CacheEvictor::CacheEvictor(MPI_Comm world) : llc_(last_level_cache_bytes()) {
  MPI_Comm host = MPI_COMM_NULL;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  MPI_Comm_size(host, &host_ranks_);
  MPI_Comm_free(&host);
  const std::size_t share = 2 * llc_ / static_cast<std::size_t>(host_ranks_);
  buffer_.assign((share + kLine - 1) / kLine * kLine, 0);
}

void CacheEvictor::evict() {
  ++passes_;
  // A read and a write of every cache line: the lines are allocated in the cache (glibc's
  // memset of this size uses non-temporal stores, which would bypass it and evict nothing).
  unsigned char* p = buffer_.data();
  for (std::size_t i = 0; i < buffer_.size(); i += kLine) p[i] = static_cast<unsigned char>(p[i] + 1);
  // The buffer is read back once per pass through a volatile: the stores are never elided.
  volatile unsigned char sink = p[static_cast<std::size_t>(passes_) * kLine % buffer_.size()];
  (void)sink;
}

}  // namespace hympi::bench
