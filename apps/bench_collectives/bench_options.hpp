// Options of the collective benchmark, OSU style: the size range, iterations
// and warm-up (OSU's defaults when not given), validation, root, which
// operations and variants to run, and the options every app shares (CSV, node layout).
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common_options.hpp"
#include "operation.hpp"

namespace hympi::bench {

struct BenchOptions {
  std::int64_t min_size = 1;      // doubles per rank
  std::int64_t max_size = 32768;  // doubles per rank
  static constexpr int kAuto = std::numeric_limits<int>::min();
  int iterations = kAuto;  // kAuto: OSU's default for the size
  int warmup = kAuto;      // kAuto: OSU's default for the size
  bool validate = false;
  bool untimed_write = false;  // time only the exchange, not the write of the contribution
  std::string cache = "warm";  // warm (OSU: the same buffers, cached) | cold (evicted between iterations)
  int root = 0;
  std::vector<std::string> ops = {"allgather", "allgatherv", "bcast"};
  std::vector<std::string> variants = {"pure", "hybrid-barrier", "hybrid-flags", "node-barrier"};
  bool progress = true;
  Reduction reduction;               // --type, --op of allreduce/reduce
  std::string baseline = "default";  // the MPI's algorithms under pure (baseline.hpp)
  int leaders = 0;  // bridge ranks per node of the hybrid variants (0 = the library's automatic choice)
  apps::CommonOptions common;

  // Powers of two times min_size up to max_size, as OSU's size loop.
  std::vector<std::int64_t> sizes() const;
  // OSU: 1000 iterations / 100 warm-up up to 8 KiB per rank, 100 / 10 above,
  // unless -i / -x were given (then they hold for every size).
  int iterations_for(std::int64_t size) const;
  int warmup_for(std::int64_t size) const;
};

// Registers every option on `app`.
void add_bench_options(CLI::App& app, BenchOptions& options);

// Checks what CLI11 cannot (ranges that depend on each other or on the number of
// ranks); throws hympi::Error(invalid_argument) naming the bad option.
void check_bench_options(const BenchOptions& options, int comm_size);

}  // namespace hympi::bench
