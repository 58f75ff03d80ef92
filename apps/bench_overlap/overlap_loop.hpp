// The one overlap loop every variant runs, OSU's osu_iallgather method: per
// iteration a barrier, then start(), a busy computation calling test() `polls`
// times at even intervals, and wait(). This rank's contribution is written
// before the barrier, outside the timed region (OSU times the nonblocking calls
// alone); the last iteration's result is checked.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "cache_evictor.hpp"
#include "hympi/persistent.hpp"
#include "overlap_data.hpp"

namespace hympi::overlap {

struct Timing {
  double seconds = 0;      // mean per iteration of start [+ compute] + wait, averaged over ranks
  std::int64_t wrong = 0;  // wrong elements of the last result, summed over ranks
};

// Collective over `comm`, the communicator `collective` runs on. `compute_s` = 0:
// start + wait with nothing between (the collective's own time). An evictor (cold caches)
// runs before every iteration's write, untimed.
Timing timed(PersistentCollective& collective, const OverlapData& data, MPI_Comm comm, int iterations, int warmup,
             double compute_s, int polls, bench::CacheEvictor* evictor = nullptr);

}  // namespace hympi::overlap
