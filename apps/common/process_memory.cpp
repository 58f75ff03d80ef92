#include "process_memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

#include "hympi/error.hpp"

namespace hympi::apps {

namespace {

// The "<field>: <n> kB" line of a /proc file, in bytes; -1 when absent.
long long kib_field(const char* path, const std::string& field) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, field.size() + 1, field + ":") != 0) continue;
    std::istringstream value(line.substr(field.size() + 1));
    long long kib = -1;
    if (value >> kib) return kib * 1024;
  }
  return -1;
}

}  // namespace

ProcessMemory read_process_memory() {
  return {kib_field("/proc/self/status", "VmRSS"), kib_field("/proc/self/smaps_rollup", "Pss"),
          kib_field("/proc/self/status", "VmHWM")};
}

ProcessMemory sum_process_memory(MPI_Comm comm) {
  const ProcessMemory mine = read_process_memory();
  const long long mine_fields[3] = {mine.rss_bytes, mine.pss_bytes, mine.peak_rss_bytes};
  long long in[6], out[6];  // the sums, then how many ranks could not tell
  for (int f = 0; f < 3; ++f) in[f] = mine_fields[f], in[3 + f] = mine_fields[f] < 0 ? 1 : 0;
  HYMPI_CHECK_MPI(MPI_Allreduce(in, out, 6, MPI_LONG_LONG, MPI_SUM, comm));
  return {out[3] ? -1 : out[0], out[4] ? -1 : out[1], out[5] ? -1 : out[2]};
}

}  // namespace hympi::apps
