// Command line of hympi-bench-overlap: which operations, sizes, variants and test()
// poll counts to measure, the hybrid variant's leaders and progress thread, the
// OSU iteration counts, and the options every app shares (CSV, node layout).
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "common_options.hpp"

namespace hympi::overlap {

struct OverlapOptions {
  std::vector<std::string> ops = {"allgather"};
  std::vector<std::int64_t> sizes = {1, 64, 1024, 16384};  // doubles per rank
  std::vector<std::string> variants = {"mpi", "pure", "hybrid"};
  std::vector<int> polls = {0, 8};
  int leaders = 1;
  bool progress_thread = false;
  int iterations = 200;
  int warmup = 20;
  std::string cache = "warm";  // cold: caches evicted before every iteration (cache_evictor.hpp)
  apps::CommonOptions common;
};

// Registers every option on `app`.
void add_overlap_options(CLI::App& app, OverlapOptions& options);

// Checks what CLI11 does not (ranges, empty lists); throws
// hympi::Error(invalid_argument) naming the bad option. Needs no communication,
// so every rank reaches the same verdict.
void check_overlap_options(const OverlapOptions& options);

}  // namespace hympi::overlap
