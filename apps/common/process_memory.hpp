// The memory a process really holds, from Linux's /proc: resident set (VmRSS of
// /proc/self/status), its peak so far (VmHWM) and proportional set (Pss of
// /proc/self/smaps_rollup). RSS
// counts a shared page in every process that touched it; PSS divides it among
// them, so the PSS of a node's processes sums to what the node holds.
#pragma once
#include <mpi.h>

namespace hympi::apps {

struct ProcessMemory {
  long long rss_bytes = -1;  // -1: not available on this system
  long long pss_bytes = -1;
  long long peak_rss_bytes = -1;
};

ProcessMemory read_process_memory();

// Collective over `comm`: the sums over its ranks (-1 where any rank could not tell).
ProcessMemory sum_process_memory(MPI_Comm comm);

}  // namespace hympi::apps
