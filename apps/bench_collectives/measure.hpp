// The OSU timing loop: warm-up, timed iterations with an untimed barrier on the
// whole communicator after each, per-rank average reduced to min/avg/max.
// Where the write of the contribution goes (WriteMode): timed (default mode),
// untimed (Zhou et al. time the exchange of data already in place), or not done
// per iteration (OSU: the buffers are filled once, rewritten only with -c).
#pragma once
#include <cstddef>
#include <cstdint>

#include "cache_evictor.hpp"
#include "operation.hpp"

namespace hympi::bench {

enum class WriteMode { timed, untimed, none };

struct Measurement {
  double min_us = 0, avg_us = 0, max_us = 0;  // per-rank average latency, over ranks
  // Per-rank median latency averaged over ranks: not OSU's, but robust to the
  // time slices a busy shared machine steals from a few iterations.
  double median_us = 0;
  // OSU's -z tail latencies (P50, P90, P99): each iteration's latency averaged over
  // ranks, then the percentile of those, as OSU 7.4's omb_calculate_tail_lat.
  double tail_us[3] = {0, 0, 0};
  int iterations = 0, warmup = 0;
  bool timed_write = true;          // the write of this rank's contribution is inside the timed region
  bool validated = false;           // data were checked after every iteration
  std::int64_t errors = 0;          // wrong elements, summed over ranks and iterations
  std::int64_t result_doubles = 0;  // result elements (doubles, or bytes / --type in OSU mode)
  std::size_t bytes_per_node = 0;   // max over nodes
  // Cold-cache mode (cache_evictor.hpp): bytes each rank read and wrote between iterations,
  // the last-level cache they evict, and the eviction passes made (warm: all 0).
  std::size_t evict_bytes = 0, llc_bytes = 0;
  std::int64_t evictions = 0;
};

// Collective over topo.comm(). `op` must be resized for the size being measured. With an
// evictor (cold caches), every iteration is preceded by an eviction pass and a barrier, untimed.
Measurement measure(Operation& op, const Topology& topo, int iterations, int warmup, bool validate,
                    WriteMode write = WriteMode::timed, CacheEvictor* evictor = nullptr);

}  // namespace hympi::bench
