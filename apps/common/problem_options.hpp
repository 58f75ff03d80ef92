// The problem of the matrix-multiply apps (hympi-summa, hympi-auto-groups,
// hympi-pdgemm-auto, hympi-pdgemm-bench, hympi-dgemm-bench): one group of options
// with one meaning of each letter in every app that takes it.
//   -m M            rows of A and C
//   -n N            columns of B and C
//   -k K            columns of A, rows of B (the inner dimension)
//   -N, --size S    m = n = k = S (wins over -m -n -k)
//   -b B            inner panel width (SUMMA's block; HSUMMA's inside a group)
//   -M W            outer panel width between groups, a multiple of b (default b)
//   -g, --grid PxQ  process grid (default: the most square factorization of the ranks)
// An app adds the parts it has a use for (ProblemParts), with its own defaults in
// the struct, and checks them in one call (check_problem_options).
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace hympi::apps {

struct ProblemOptions {
  std::int64_t m = 1024, n = 1024, k = 1024;
  std::int64_t size = 0;  // -N: 0 = not given
  std::int64_t b = 64, M = 0;  // M = 0: M = b
  std::string grid;            // "" = the most square grid
};

// Which options an app takes.
enum ProblemParts : unsigned {
  kProblemSize = 1,    // -N, --size
  kProblemShape = 2,   // -m -n -k (and -N)
  kProblemPanels = 4,  // -b -M
  kProblemGrid = 8,    // -g, --grid
  kProblemAll = kProblemSize | kProblemShape | kProblemPanels | kProblemGrid,
};

void add_problem_options(CLI::App& app, ProblemOptions& options, unsigned parts);

// The checked problem: -N applied, M completed, the grid parsed.
struct Problem {
  std::int64_t m = 0, n = 0, k = 0, b = 0, M = 0;
  int P = 1, Q = 1;
  std::string grid_text() const { return std::to_string(P) + "x" + std::to_string(Q); }
};

enum class GridRanks {
  must_match,  // the app runs on the grid: P x Q must be the ranks it runs on
  any          // the grid is a model input (hympi-pdgemm-auto)
};

// Throws hympi::Error(invalid_argument) naming the option (the same words as the
// SUMMA/HSUMMA engine's own check): sizes and b positive, M a multiple of b and
// >= b, the grid PxQ and, with GridRanks::must_match, P*Q = comm_size.
Problem check_problem_options(const ProblemOptions& options, int comm_size, GridRanks ranks);

}  // namespace hympi::apps
