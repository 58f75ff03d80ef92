#include "problem_options.hpp"

#include <tuple>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"

namespace hympi::apps {

void add_problem_options(CLI::App& app, ProblemOptions& o, unsigned parts) {
  const char* group = "Problem";
  if (parts & kProblemShape) {
    app.add_option("-m", o.m, "Rows of A and C")->capture_default_str()->group(group);
    app.add_option("-n", o.n, "Columns of B and C")->capture_default_str()->group(group);
    app.add_option("-k", o.k, "Columns of A, rows of B")->capture_default_str()->group(group);
  }
  if (parts & (kProblemSize | kProblemShape)) {
    const std::string help = parts & kProblemShape ? "Sets m = n = k (wins over -m -n -k)" : "m = n = k";
    auto* size = app.add_option("-N,--size", o.size, help)->group(group);
    if (!(parts & kProblemShape)) size->capture_default_str();  // the app sets o.size
  }
  if (parts & kProblemPanels) {
    app.add_option("-b", o.b, "Inner panel width (SUMMA's block; HSUMMA's inside a group)")
        ->capture_default_str()
        ->group(group);
    app.add_option("-M", o.M, "Outer panel width between groups, a multiple of b (default: b)")->group(group);
  }
  if (parts & kProblemGrid)
    app.add_option("-g,--grid", o.grid, "Process grid PxQ (default: the most square factorization of the ranks)")
        ->group(group);
}

Problem check_problem_options(const ProblemOptions& o, int comm_size, GridRanks ranks) {
  Problem p;
  p.m = o.size ? o.size : o.m;
  p.n = o.size ? o.size : o.n;
  p.k = o.size ? o.size : o.k;
  p.b = o.b;
  p.M = o.M ? o.M : o.b;
  require(p.m >= 1 && p.n >= 1 && p.k >= 1, "matrix sizes must be positive (m=" + std::to_string(p.m) +
                                                ", n=" + std::to_string(p.n) + ", k=" + std::to_string(p.k) + ")");
  require(p.b >= 1, "the inner block size b must be >= 1 (b=" + std::to_string(p.b) + ")");
  require(p.M >= p.b, "the inner block size b=" + std::to_string(p.b) + " exceeds the outer block size M=" +
                          std::to_string(p.M) + " (need b <= M)");
  require(p.M % p.b == 0, "the outer block size M=" + std::to_string(p.M) +
                              " must be a multiple of the inner block size b=" + std::to_string(p.b));
  std::tie(p.P, p.Q) = o.grid.empty() ? most_square_grid(comm_size) : parse_grid(o.grid, "--grid");
  if (ranks == GridRanks::must_match)
    require(p.P * p.Q == comm_size, "the grid " + p.grid_text() + " has " + std::to_string(p.P * p.Q) +
                                        " ranks but the communicator has " + std::to_string(comm_size));
  return p;
}

}  // namespace hympi::apps
