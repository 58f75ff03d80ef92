// hympi-dgemm-bench: the rate of the local SUMMA update C(m x n) += A(m x k) * B(k x n)
// at the panel shapes the driver uses, on as many BLAS threads as OPENBLAS_NUM_THREADS
// says (the apps' runs use 1: export OPENBLAS_NUM_THREADS=1 to compare). Without
// -m/-n/-k/-N (all 0): the driver's shapes, n = 4096 on 2 ranks (a 2048 x 4096 local
// C) with panel widths k = 64..1024, and the per-core blocks 8, 64, 128, 256 of the
// Ori/Hy SUMMA comparison. Every rank times its own dgemm (run it on one rank unless
// the shared machine is what you measure); rank 0 reports.
#include <cblas.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "problem_options.hpp"
#include "record.hpp"
#include "run_info.hpp"

namespace {

constexpr hympi::apps::AppInfo kApp{
    "hympi-dgemm-bench",
    "The rate of the local SUMMA update C(m x n) += A(m x k) * B(k x n) (cblas_dgemm, column-major), at the "
    "driver's panel shapes or at one shape given by -m -n -k (or -N)."};

struct Options {
  hympi::apps::ProblemOptions problem;  // all 0: the driver's shapes
  double min_time = 0.2;  // seconds of timed calls per shape
  int warmup = 1;
  hympi::apps::CommonOptions common;
  Options() { problem.m = problem.n = problem.k = 0; }
};

void add_options(CLI::App& app, Options& o) {
  hympi::apps::add_problem_options(app, o.problem, hympi::apps::kProblemShape);
  app.add_option("--min-time", o.min_time, "Time each shape for at least this long [s]")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed calls per shape")->check(CLI::NonNegativeNumber)->capture_default_str();
  hympi::apps::add_common_options(app, o.common, "Append one row per shape to this CSV file ('-' = stdout)");
}

struct Shape {
  std::int64_t m, n, k;
};

// The shapes to time: the one the problem options give (all three, or -N), else the driver's.
std::vector<Shape> shapes_of(const Options& o) {
  const hympi::apps::ProblemOptions& p = o.problem;
  if (p.m || p.n || p.k || p.size) {
    const auto pb = hympi::apps::check_problem_options(o.problem, 1, hympi::apps::GridRanks::any);
    return {{pb.m, pb.n, pb.k}};
  }
  std::vector<Shape> list;
  for (int w : {64, 128, 256, 512, 1024}) list.push_back({2048, 4096, w});  // n = 4096, 2x1 grid
  for (int w : {64, 256}) list.push_back({4096, 2048, w});                  // n = 4096, 1x2 grid
  for (int s : {8, 64, 128, 256}) list.push_back({s, s, s});                // per-core blocks, b = s
  list.push_back({1024, 1024, 1024});                                       // square reference
  return list;
}

struct Timing {
  long calls = 0;
  double best_s = 0, mean_s = 0;
};

Timing time_shape(const Shape& s, const Options& o) {
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  std::vector<double> a(static_cast<std::size_t>(s.m * s.k), 0.5), b(static_cast<std::size_t>(s.k * s.n), 0.25),
      c(static_cast<std::size_t>(s.m * s.n), 0.0);
  const auto call = [&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a.data(), m, b.data(), k, 1.0, c.data(), m);
  };
  for (int i = 0; i < o.warmup; ++i) call();
  Timing t;
  t.best_s = 1e300;
  const double start = MPI_Wtime();
  double total = 0;
  while (total < o.min_time) {
    const double t0 = MPI_Wtime();
    call();
    const double dt = MPI_Wtime() - t0;
    t.best_s = std::min(t.best_s, dt);
    ++t.calls;
    total = MPI_Wtime() - start;
  }
  t.mean_s = total / static_cast<double>(t.calls);
  return t;
}

hympi::apps::Record record(const Shape& s, const Timing& t) {
  const double flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  hympi::apps::Record r;
  r.add("m", s.m).add("n", s.n).add("k", s.k).add("calls", t.calls);
  r.add("best_s", t.best_s, 9).add("mean_s", t.mean_s, 9);
  return r.add("best_gflops", t.best_s > 0 ? flops / t.best_s * 1e-9 : 0.0)
      .add("mean_gflops", t.mean_s > 0 ? flops / t.mean_s * 1e-9 : 0.0);
}

int run(Options& o) {
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const std::vector<Shape> shapes = shapes_of(o);
  const auto info = hympi::apps::gather_run_info(hympi::Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size)));
  auto csv = hympi::apps::RecordCsv::open(MPI_COMM_WORLD, o.common.csv, record({1, 1, 1}, {}), &info);
  if (rank == 0) std::printf("%8s %8s %8s %8s %12s %12s %10s\n", "m", "n", "k", "calls", "best[s]", "mean[s]", "GF/s");
  for (const Shape& s : shapes) {
    const Timing t = time_shape(s, o);
    const auto r = record(s, t);
    csv.write(r);
    if (rank == 0)
      std::printf("%8lld %8lld %8lld %8ld %12.6g %12.6g %10.2f\n", static_cast<long long>(s.m),
                  static_cast<long long>(s.n), static_cast<long long>(s.k), t.calls, t.best_s, t.mean_s,
                  2.0 * s.m * s.n * static_cast<double>(s.k) / t.best_s * 1e-9);
  }
  return hympi::apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
