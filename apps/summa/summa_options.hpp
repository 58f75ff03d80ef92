// Command line of hympi-summa: one option style for SUMMA, HSUMMA and PDGEMM.
#pragma once
#include <CLI/CLI.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common_options.hpp"
#include "problem_options.hpp"

namespace hympi::apps {

enum class SummaAlgorithm { summa, hsumma, pdgemm };
// Which correctness checks run after the timed repetitions.
enum class SummaCheck { none, residual, serial, pdgemm, all };

}  // namespace hympi::apps

namespace hympi {
template <>
struct EnumTable<apps::SummaAlgorithm> {
  static constexpr const char* what = "algorithm";
  static constexpr Spelling<apps::SummaAlgorithm> names[] = {{"summa", apps::SummaAlgorithm::summa},
                                                             {"hsumma", apps::SummaAlgorithm::hsumma},
                                                             {"pdgemm", apps::SummaAlgorithm::pdgemm}};
  static constexpr std::array<Spelling<apps::SummaAlgorithm>, 0> aliases{};
};
template <>
struct EnumTable<apps::SummaCheck> {
  static constexpr const char* what = "check";
  static constexpr Spelling<apps::SummaCheck> names[] = {
      {"none", apps::SummaCheck::none},     {"residual", apps::SummaCheck::residual},
      {"serial", apps::SummaCheck::serial}, {"pdgemm", apps::SummaCheck::pdgemm},
      {"all", apps::SummaCheck::all}};
  static constexpr std::array<Spelling<apps::SummaCheck>, 0> aliases{};
};
}  // namespace hympi

namespace hympi::apps {

struct SummaOptions {
  std::vector<SummaAlgorithm> algorithms{SummaAlgorithm::summa};
  std::vector<Policy> policies{Policy::hybrid};  // ignored by pdgemm
  std::vector<int> lookahead{0};                 // 0 | 1 (ignored by pdgemm)
  SyncKind sync = SyncKind::flags;
  ProblemOptions problem;                  // m = n = k = 1024, b = 64, M = b, the most square grid
  std::vector<std::string> groups{"1x1"};  // HSUMMA group splits IxJ, one run each
  std::vector<std::int64_t> pdgemm_nb{0};  // 0 = the engine's distribution
  GridOrder order = GridOrder::row_major;
  bool group_major = false;
  int reps = 5, warmup = 1, batch = 1;
  SummaCheck check = SummaCheck::residual;
  int threads = 1;
  bool reference_dgemm = true;
  bool share_inputs = true;
  std::int64_t max_steps = 0;  // 0 = all outer steps; else only the first ones (timing only)
  std::uint64_t seed = 42;
  CommonOptions common;
};

void add_summa_options(CLI::App& app, SummaOptions& options);

// The problem (sizes, panels, grid: problem_options.hpp) and the group shapes.
struct SummaShapes {
  Problem problem;
  std::vector<std::pair<int, int>> groups;
};

// Every check of the options alone, in one place: the problem options' check,
// --groups parsed, and the run options; throws hympi::Error (invalid_argument)
// naming the option. What needs the engine (groups against the grid) is
// hsumma::validate's, in make_setup.
SummaShapes check_summa_options(const SummaOptions& options, int comm_size);

}  // namespace hympi::apps
