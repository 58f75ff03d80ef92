// hympi-auto-groups (main and SMPI builds): what groups=auto with
// model=measured chooses on this machine or at simulated scale. It
// runs the drop-in's probe (hympi/hsumma/line_probe.hpp: HSUMMA's four kinds of
// broadcast timed on the engine's own communicators, every line at once, at two
// panel widths) for every group shape of the grid, then the model's choice. One
// CSV record per shape (run metadata first, apps/common/record.hpp): the fitted
// lines, the predicted times, chosen = 1 on the pick. apps/smpi/auto_choice.py
// compares the simulated picks with the committed sweeps (apps/smpi/run-auto-probe.sh). Nothing is cached here.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/enums.hpp"
#include "hympi/error.hpp"
#include "hympi/hsumma/line_probe.hpp"
#include "hympi/topology.hpp"
#include "problem_options.hpp"
#include "record.hpp"
#include "run_info.hpp"

namespace {

namespace model = hympi::hsumma::model;

constexpr hympi::apps::AppInfo kApp{
    "hympi-auto-groups",
    "Runs groups=auto's measured probe (HSUMMA's broadcasts on the engine's communicators, every line at once, two "
    "panel widths) for every group shape of a PxQ grid and prints one CSV row per shape with the fitted lines, the "
    "model's predicted time and the shape it chooses."};

struct Options {
  hympi::apps::ProblemOptions problem;
  long long narrow = 0;
  hympi::Policy policy = hympi::Policy::pure;
  double gflops = 3.4;
  int reps = 1;
  hympi::apps::CommonOptions common;
  Options() {
    problem.m = problem.n = problem.k = 4096, problem.b = 256;
    common.csv = "-";
  }
};

void add_options(CLI::App& app, Options& o) {
  hympi::apps::add_problem_options(app, o.problem, hympi::apps::kProblemAll);
  app.add_option("--narrow", o.narrow, "the narrower panel width timed (default b/4; the wider is M)")
      ->check(CLI::PositiveNumber);
  hympi::apps::add_enum_option(app, "--policy", o.policy, hympi::apps::policy_names(), "broadcast policy");
  app.add_option("--gflops", o.gflops, "DGEMM rate per process for the prediction [Gflop/s]")
      ->check(CLI::PositiveNumber);
  app.add_option("--reps", o.reps, "timed broadcasts per point after a warm-up")->check(CLI::PositiveNumber);
  hympi::apps::add_common_options(app, o.common, "Append one row per group shape to this CSV file (default '-' = stdout)");
}

// The problem and probe the options describe, checked in one place (same verdict
// on every rank), or hympi::Error(invalid_argument) naming the option.
struct Checked {
  model::Problem pb;
  long long narrow = 0, wide = 0;
};

Checked check_options(const Options& o, int comm_size) {
  const hympi::apps::Problem p =
      hympi::apps::check_problem_options(o.problem, comm_size, hympi::apps::GridRanks::must_match);
  Checked c;
  c.wide = p.M;
  c.narrow = o.narrow ? o.narrow : std::max(1LL, static_cast<long long>(p.b) / 4);
  if (c.narrow >= c.wide)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "--narrow must be below M = " + std::to_string(c.wide));
  model::Problem& pb = c.pb;
  pb.P = p.P, pb.Q = p.Q;
  pb.m = static_cast<double>(p.m), pb.n = static_cast<double>(p.n), pb.k = static_cast<double>(p.k);
  pb.b = static_cast<double>(p.b), pb.M = static_cast<double>(p.M);
  return c;
}

// One CSV row: the problem, the probe, one group shape's fitted lines and prediction.
hympi::apps::Record shape_record(const Options& o, const Checked& c, const model::MeasuredShape& s,
                                 const model::Prediction& p, bool chosen, double probe_s) {
  const model::Problem& pb = c.pb;
  hympi::apps::Record r;
  r.add("P", pb.P).add("Q", pb.Q);
  const auto whole = [](double x) { return static_cast<long long>(x); };
  r.add("m", whole(pb.m)).add("n", whole(pb.n)).add("k", whole(pb.k)).add("b", whole(pb.b)).add("M", whole(pb.M));
  r.add("policy", hympi::enum_name(o.policy)).add("reps", o.reps).add("narrow", c.narrow).add("wide", c.wide);
  r.add("I", s.I).add("J", s.J).add("G", s.I * s.J);
  const std::pair<const char*, const model::Line*> lines[] = {
      {"outer_row", &s.outer_row}, {"outer_col", &s.outer_col}, {"inner_row", &s.inner_row}, {"inner_col", &s.inner_col}};
  for (const auto& [name, line] : lines)
    r.add(std::string(name) + "_latency_s", line->latency, 9).add(std::string(name) + "_per_byte_s", line->per_byte, 9);
  r.add("t_outer_s", p.t_outer, 9).add("t_inner_s", p.t_inner, 9).add("t_comp_s", p.t_comp, 9);
  return r.add("t_total_s", p.t_total, 9).add("chosen", chosen).add("probe_s", probe_s, 6);
}

int run(Options& o) {
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const Checked checked = check_options(o, size);
  const model::Problem& pb = checked.pb;
  const auto info = hympi::apps::gather_run_info(hympi::Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size)));
  auto csv = hympi::apps::RecordCsv::open(MPI_COMM_WORLD, o.common.csv,
                                          shape_record(o, checked, {}, {}, false, 0), &info);
  hympi::hsumma::LineProbe pr;
  pr.P = pb.P, pr.Q = pb.Q, pr.reps = o.reps;
  pr.a_rows = static_cast<std::int64_t>(std::ceil(pb.m / pb.P));
  pr.b_cols = static_cast<std::int64_t>(std::ceil(pb.n / pb.Q));
  pr.narrow = checked.narrow, pr.wide = checked.wide;
  pr.engine.bcast.policy = o.policy;
  const double t0 = MPI_Wtime();
  const auto shapes = hympi::hsumma::probe_lines(MPI_COMM_WORLD, pr, model::group_shapes(pb.P, pb.Q));
  const double probe_s = MPI_Wtime() - t0;
  model::Machine mc;
  mc.gamma = o.gflops * 1e9;
  const model::Choice pick = model::choose_measured(pb, mc, shapes, {});
  for (const model::MeasuredShape& s : shapes)
    csv.write(shape_record(o, checked, s, model::predict_measured(pb, mc, s), s.I == pick.p.I && s.J == pick.p.J,
                           probe_s));
  if (rank == 0)
    std::printf("groups=auto (measured): %dx%d (G = %d), predicted %.6g s; probe %.3g s\n", pick.p.I, pick.p.J,
                pick.p.I * pick.p.J, pick.p.t_total, probe_s);
  return hympi::apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
