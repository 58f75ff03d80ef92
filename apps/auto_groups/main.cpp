// hympi-auto-groups (main and SMPI builds): what groups=auto with
// model=measured chooses on this machine or at simulated scale. It
// runs the drop-in's probe (hympi/hsumma/line_probe.hpp: HSUMMA's four kinds of
// broadcast timed on the engine's own communicators, every line at once, at two
// panel widths) for every group shape of the grid, then the model's choice. One
// CSV row per shape: the fitted lines, the predicted times, chosen = 1 on the
// pick. apps/smpi/auto_choice.py compares the simulated picks with the
// committed sweeps (apps/smpi/run-auto-probe.sh). Nothing is cached here.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/enums.hpp"
#include "hympi/error.hpp"
#include "hympi/hsumma/line_probe.hpp"

namespace {

namespace model = hympi::hsumma::model;

constexpr hympi::apps::AppInfo kApp{
    "hympi-auto-groups",
    "Runs groups=auto's measured probe (HSUMMA's broadcasts on the engine's communicators, every line at once, two "
    "panel widths) for every group shape of a PxQ grid and prints one CSV row per shape with the fitted lines, the "
    "model's predicted time and the shape it chooses."};

struct Options {
  long long m = 0, n = 4096, k = 0, b = 256, M = 0, narrow = 0;
  std::string grid, policy = "pure", csv;
  double gflops = 3.4;
  int reps = 1;
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("-n", o.n, "matrix size (m = n = k unless -m/-k given)")->check(CLI::PositiveNumber);
  app.add_option("-m", o.m, "rows of A and C")->check(CLI::PositiveNumber);
  app.add_option("-k", o.k, "columns of A, rows of B")->check(CLI::PositiveNumber);
  app.add_option("-b", o.b, "inner panel width")->check(CLI::PositiveNumber);
  app.add_option("-M", o.M, "outer panel width, a multiple of b (default b)")->check(CLI::PositiveNumber);
  app.add_option("--narrow", o.narrow, "the narrower panel width timed (default b/4; the wider is M)")
      ->check(CLI::PositiveNumber);
  app.add_option("--grid", o.grid, "process grid PxQ (default: the most square)");
  app.add_option("--policy", o.policy, "broadcast policy")->check(CLI::IsMember(hympi::enum_names<hympi::Policy>()));
  app.add_option("--gflops", o.gflops, "DGEMM rate per process for the prediction [Gflop/s]")
      ->check(CLI::PositiveNumber);
  app.add_option("--reps", o.reps, "timed broadcasts per point after a warm-up")->check(CLI::PositiveNumber);
  app.add_option("--csv", o.csv, "write the rows here (default: stdout)");
}

// The problem and probe the options describe, checked in one place (same verdict
// on every rank), or hympi::Error(invalid_argument) naming the option.
struct Checked {
  model::Problem pb;
  long long narrow = 0, wide = 0;
};

Checked check_options(const Options& o, int comm_size) {
  Checked c;
  model::Problem& pb = c.pb;
  std::tie(pb.P, pb.Q) = o.grid.empty() ? hympi::most_square_grid(comm_size) : hympi::parse_grid(o.grid, "--grid");
  if (pb.P * pb.Q != comm_size)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "grid " + std::to_string(pb.P) + "x" + std::to_string(pb.Q) +
                                                               " needs " + std::to_string(pb.P * pb.Q) +
                                                               " ranks, not " + std::to_string(comm_size));
  c.wide = o.M ? o.M : o.b;
  if (c.wide % o.b) throw hympi::Error(hympi::ErrorCode::invalid_argument, "-M must be a multiple of -b");
  c.narrow = o.narrow ? o.narrow : std::max(1LL, o.b / 4);
  if (c.narrow >= c.wide)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "--narrow must be below M = " + std::to_string(c.wide));
  pb.n = static_cast<double>(o.n), pb.m = static_cast<double>(o.m ? o.m : o.n);
  pb.k = static_cast<double>(o.k ? o.k : o.n), pb.b = static_cast<double>(o.b), pb.M = static_cast<double>(c.wide);
  return c;
}

int run(Options& o) {
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const Checked checked = check_options(o, size);
  const model::Problem& pb = checked.pb;
  hympi::hsumma::LineProbe pr;
  pr.P = pb.P, pr.Q = pb.Q, pr.reps = o.reps;
  pr.a_rows = static_cast<std::int64_t>(std::ceil(pb.m / pb.P));
  pr.b_cols = static_cast<std::int64_t>(std::ceil(pb.n / pb.Q));
  pr.narrow = checked.narrow, pr.wide = checked.wide;
  pr.engine.bcast.policy = hympi::parse_policy(o.policy);
  const double t0 = MPI_Wtime();
  const auto shapes = hympi::hsumma::probe_lines(MPI_COMM_WORLD, pr, model::group_shapes(pb.P, pb.Q));
  const double probe_s = MPI_Wtime() - t0;
  model::Machine mc;
  mc.gamma = o.gflops * 1e9;
  const model::Choice pick = model::choose_measured(pb, mc, shapes, {});
  if (rank != 0) return hympi::apps::kSuccess;
  std::ofstream file;
  if (!o.csv.empty()) file.open(o.csv);
  std::FILE* out = stdout;
  std::string text =
      "ranks,P,Q,m,n,k,b,M,policy,reps,narrow,wide,I,J,G,outer_row_latency_s,outer_row_per_byte_s,"
      "outer_col_latency_s,outer_col_per_byte_s,inner_row_latency_s,inner_row_per_byte_s,inner_col_latency_s,"
      "inner_col_per_byte_s,t_outer_s,t_inner_s,t_comp_s,t_total_s,chosen,probe_s\n";
  for (const model::MeasuredShape& s : shapes) {
    const model::Prediction p = model::predict_measured(pb, mc, s);
    char row[1024];
    std::snprintf(row, sizeof row,
                  "%d,%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%s,%d,%lld,%lld,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,"
                  "%.9g,%.9g,%.9g,%.9g,%d,%.6g\n",
                  size, pb.P, pb.Q, pb.m, pb.n, pb.k, pb.b, pb.M, o.policy.c_str(), o.reps,
                  static_cast<long long>(pr.narrow), static_cast<long long>(pr.wide), s.I, s.J, s.I * s.J,
                  s.outer_row.latency, s.outer_row.per_byte, s.outer_col.latency, s.outer_col.per_byte,
                  s.inner_row.latency, s.inner_row.per_byte, s.inner_col.latency, s.inner_col.per_byte, p.t_outer,
                  p.t_inner, p.t_comp, p.t_total, s.I == pick.p.I && s.J == pick.p.J, probe_s);
    text += row;
  }
  if (file.is_open())
    file << text;
  else
    std::fputs(text.c_str(), out);
  std::printf("groups=auto (measured): %dx%d (G = %d), predicted %.6g s; probe %.3g s\n", pick.p.I, pick.p.J,
              pick.p.I * pick.p.J, pick.p.t_total, probe_s);
  return hympi::apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
