// hympi-pdgemm-auto: the choice of groups=auto (drop-in pdgemm) made visible.
//   --probe            measure alpha, beta and the DGEMM rate (or read them from the
//                      tuning file) exactly as the drop-in does, and print them;
//   -n/-b/--grid ...   the optimal HSUMMA groups I x J for that problem, with the
//                      machine given (--alpha/--beta/--gflops) or probed (--probe);
//   --table FILE       rows "P Q m n k b M alpha beta gflops bcast" (FILE, or - for
//                      stdin; launchers may not forward a large stdin), one line
//                      "I J t_total" each (the model test compares it with
//                      apps/model/hympi_model.py).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/error.hpp"
#include "hympi/hsumma/cost_model.hpp"
#include "hympi/pdgemm_machine.hpp"

namespace {

namespace model = hympi::hsumma::model;

constexpr hympi::apps::AppInfo kApp{
    "hympi-pdgemm-auto",
    "Shows what HYMPI_PDGEMM_GROUPS=auto picks with the formula models (HYMPI_PDGEMM_MODEL=vandegeijn, binomial, "
    "pipelined): the HSUMMA groups I x J minimising the alpha-beta model (apps/model) for a problem, with alpha, "
    "beta and the DGEMM rate given or measured by the drop-in's probe (cached in the tuning file: "
    "HYMPI_TUNING_FILE, else $XDG_CACHE_HOME or ~/.cache/hympi/tuning-<host>.txt). The default model=measured: "
    "hympi-auto-groups."};

struct Options {
  long long m = 0, n = 4096, k = 0, b = 256, M = 0;
  std::string grid = "1x1", bcast = "vandegeijn";
  double alpha = 3e-6, beta = 1.0 / 1.7e9, gflops = 3.4;
  std::string table;
  bool probe = false;
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("-n", o.n, "matrix size (m = n = k unless -m/-k given)")->check(CLI::PositiveNumber);
  app.add_option("-m", o.m, "rows of A and C")->check(CLI::PositiveNumber);
  app.add_option("-k", o.k, "columns of A, rows of B")->check(CLI::PositiveNumber);
  app.add_option("-b", o.b, "inner panel width")->check(CLI::PositiveNumber);
  app.add_option("-M", o.M, "outer panel width, a multiple of b (default b)")->check(CLI::PositiveNumber);
  app.add_option("--grid", o.grid, "process grid PxQ");
  app.add_option("--alpha", o.alpha, "latency per message [s]")->check(CLI::PositiveNumber);
  app.add_option("--beta", o.beta, "transfer time per byte [s/B]")->check(CLI::PositiveNumber);
  app.add_option("--gflops", o.gflops, "DGEMM rate per process [Gflop/s]")->check(CLI::PositiveNumber);
  app.add_option("--bcast", o.bcast, "broadcast model")
      ->check(CLI::IsMember(hympi::enum_names<model::Bcast>()))
      ->capture_default_str();
  app.add_flag("--probe", o.probe, "use the measured machine (tuning file or probe, as the drop-in; >= 2 ranks)");
  app.add_option("--table", o.table, "read rows 'P Q m n k b M alpha beta gflops bcast' from this file (- = stdin)");
}

void print_choice(const model::Problem& pb, const model::Machine& mc, model::Bcast bc) {
  const model::Prediction best = model::optimal(pb, mc, bc);
  const model::Prediction summa = model::predict(pb, mc, bc, 1, 1);
  std::printf("groups=auto: %dx%d (G = %d) on grid %dx%d, model %s: %.6g s vs SUMMA %.6g s\n", best.I, best.J,
              best.I * best.J, pb.P, pb.Q, model::bcast_name(bc), best.t_total, summa.t_total);
}

int run_table(const std::string& path) {
  std::ifstream file;
  if (path != "-") {
    file.open(path);
    if (!file) throw hympi::Error(hympi::ErrorCode::invalid_argument, "cannot read --table " + path);
  }
  std::istream& input = path == "-" ? std::cin : file;
  std::string line;
  while (std::getline(input, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    model::Problem pb;
    model::Machine mc;
    double gflops = 0;
    std::string bcast;
    if (!(in >> pb.P >> pb.Q >> pb.m >> pb.n >> pb.k >> pb.b >> pb.M >> mc.alpha >> mc.beta >> gflops >> bcast))
      throw hympi::Error(hympi::ErrorCode::invalid_argument, "bad table row '" + line + "'");
    mc.gamma = gflops * 1e9;
    const model::Prediction best = model::optimal(pb, mc, model::parse_bcast(bcast));
    std::printf("%d %d %.17g\n", best.I, best.J, best.t_total);
  }
  return hympi::apps::kSuccess;
}

// Every check of the options, in one place (same verdict on every rank): the
// problem they describe, or hympi::Error(invalid_argument) naming the option.
model::Problem check_options(const Options& o, int comm_size) {
  if (!o.table.empty() && comm_size > 1)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "--table runs on one rank");
  if (o.probe && comm_size < 2) throw hympi::Error(hympi::ErrorCode::invalid_argument, "--probe needs >= 2 ranks");
  model::Problem pb;
  std::tie(pb.P, pb.Q) = hympi::parse_grid(o.grid, "--grid");
  const long long M = o.M ? o.M : o.b;
  if (M % o.b) throw hympi::Error(hympi::ErrorCode::invalid_argument, "-M must be a multiple of -b");
  pb.n = static_cast<double>(o.n), pb.m = static_cast<double>(o.m ? o.m : o.n);
  pb.k = static_cast<double>(o.k ? o.k : o.n), pb.b = static_cast<double>(o.b), pb.M = static_cast<double>(M);
  return pb;
}

int run(Options& o) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  int size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const model::Problem pb = check_options(o, size);
  if (!o.table.empty()) return run_table(o.table);
  model::Machine mc;
  mc.alpha = o.alpha, mc.beta = o.beta, mc.gamma = o.gflops * 1e9;
  if (o.probe) {
    mc = hympi::hsumma::scalapack::agreed_machine(MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("machine: alpha=%.4g s beta=%.4g s/B (%.4g GB/s) gamma=%.4g Gflop/s; tuning file %s\n", mc.alpha,
                  mc.beta, 1e-9 / mc.beta, mc.gamma / 1e9, hympi::hsumma::scalapack::tuning_file_path().c_str());
  }
  if (rank == 0) print_choice(pb, mc, model::parse_bcast(o.bcast));
  return hympi::apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
