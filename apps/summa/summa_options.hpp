// Command line of hympi-summa: one option style for SUMMA, HSUMMA and PDGEMM.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common_options.hpp"

namespace hympi::apps {

struct SummaOptions {
  std::vector<std::string> algorithms{"summa"};  // summa | hsumma | pdgemm
  std::vector<Policy> policies{Policy::hybrid};  // ignored by pdgemm
  std::vector<int> lookahead{0};                 // 0 | 1 (ignored by pdgemm)
  SyncKind sync = SyncKind::flags;
  std::int64_t m = 1024, n = 1024, k = 1024, size = 0;
  std::string grid;                        // "PxQ"; empty = the most square factorization of np
  std::vector<std::string> groups{"1x1"};  // HSUMMA group splits IxJ, one run each
  std::int64_t b = 64, M = 0;              // M = 0: M = b
  std::vector<std::int64_t> pdgemm_nb{0};  // 0 = the engine's distribution
  GridOrder order = GridOrder::row_major;
  bool group_major = false;
  int reps = 5, warmup = 1, batch = 1;
  std::string check = "residual";  // none | residual | serial | pdgemm | all
  int threads = 1;
  bool reference_dgemm = true;
  bool share_inputs = true;
  std::int64_t max_steps = 0;  // 0 = all outer steps; else only the first ones (timing only)
  std::uint64_t seed = 42;
  CommonOptions common;
};

void add_summa_options(CLI::App& app, SummaOptions& options);

// The grid (the given one, else hympi::most_square_grid) and the group shapes.
struct SummaShapes {
  int P = 1, Q = 1;
  std::vector<std::pair<int, int>> groups;
};

// Every check of the options alone, in one place: completes the defaults
// (--size, M = b), parses --grid and --groups, and throws hympi::Error
// (invalid_argument) naming the option. What needs the engine (shapes against
// the ranks, block sizes) is hsumma::validate's, in make_setup.
SummaShapes check_summa_options(SummaOptions& options, int comm_size);

}  // namespace hympi::apps
