// The OSU timing loop: warm-up, timed iterations with an untimed barrier on the
// whole communicator after each, per-rank average reduced to min/avg/max.
#pragma once
#include <cstddef>
#include <cstdint>

#include "operation.hpp"

namespace hympi::bench {

struct Measurement {
  double min_us = 0, avg_us = 0, max_us = 0;  // per-rank average latency, over ranks
  int iterations = 0, warmup = 0;
  bool validated = false;   // data were checked after every iteration
  std::int64_t errors = 0;  // wrong elements, summed over ranks and iterations
  std::int64_t result_doubles = 0;
  std::size_t bytes_per_node = 0;  // max over nodes
};

// Collective over topo.comm(). `op` must be resized for the size being measured.
Measurement measure(Operation& op, const Topology& topo, int iterations, int warmup, bool validate);

}  // namespace hympi::bench
