// hympi-pdgemm-auto: the choice of groups=auto (drop-in pdgemm) made visible.
//   --probe            measure alpha, beta and the DGEMM rate (or read them from the
//                      tuning file) exactly as the drop-in does, and print them;
//   -m -n -k -N -b -M --grid  the optimal HSUMMA groups I x J for that problem (the
//                      apps' problem options), with the machine given
//                      (--alpha/--beta/--gflops) or probed (--probe);
//   --table FILE       rows "P Q m n k b M alpha beta gflops bcast" (FILE, or - for
//                      stdin; launchers may not forward a large stdin), one line
//                      "I J t_total" each (the model test compares it with
//                      apps/model/hympi_model.py).
// --csv FILE appends one record per choice (run metadata first).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/error.hpp"
#include "hympi/hsumma/cost_model.hpp"
#include "hympi/pdgemm_machine.hpp"
#include "hympi/topology.hpp"
#include "problem_options.hpp"
#include "record.hpp"
#include "run_info.hpp"

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
  hympi::apps::ProblemOptions problem;
  model::Bcast bcast = model::Bcast::vandegeijn;
  double alpha = 3e-6, beta = 1.0 / 1.7e9, gflops = 3.4;
  std::string table;
  bool probe = false;
  hympi::apps::CommonOptions common;
  Options() { problem.m = problem.n = problem.k = 4096, problem.b = 256; }
};

void add_options(CLI::App& app, Options& o) {
  hympi::apps::add_problem_options(app, o.problem, hympi::apps::kProblemAll);
  app.add_option("--alpha", o.alpha, "latency per message [s]")->check(CLI::PositiveNumber);
  app.add_option("--beta", o.beta, "transfer time per byte [s/B]")->check(CLI::PositiveNumber);
  app.add_option("--gflops", o.gflops, "DGEMM rate per process [Gflop/s]")->check(CLI::PositiveNumber);
  hympi::apps::add_enum_option(app, "--bcast", o.bcast, hympi::apps::name_map<model::Bcast>(), "broadcast model");
  app.add_flag("--probe", o.probe, "use the measured machine (tuning file or probe, as the drop-in; >= 2 ranks)");
  app.add_option("--table", o.table, "read rows 'P Q m n k b M alpha beta gflops bcast' from this file (- = stdin)");
  hympi::apps::add_common_options(app, o.common, "Append one row per choice to this CSV file ('-' = stdout)");
}

// One CSV row: the problem, the machine, the model, the choice and SUMMA's time.
hympi::apps::Record choice_record(const model::Problem& pb, const model::Machine& mc, model::Bcast bc,
                                  const model::Prediction& best, double summa_s) {
  const auto whole = [](double x) { return static_cast<long long>(x); };
  hympi::apps::Record r;
  r.add("P", pb.P).add("Q", pb.Q);
  r.add("m", whole(pb.m)).add("n", whole(pb.n)).add("k", whole(pb.k)).add("b", whole(pb.b)).add("M", whole(pb.M));
  r.add("alpha", mc.alpha, 9).add("beta", mc.beta, 9).add("gflops", mc.gamma / 1e9, 9).add("bcast", model::bcast_name(bc));
  r.add("I", best.I).add("J", best.J).add("G", best.I * best.J);
  return r.add("t_total_s", best.t_total, 9).add("summa_s", summa_s, 9);
}

void print_choice(const model::Problem& pb, const model::Machine& mc, model::Bcast bc,
                  hympi::apps::RecordCsv& csv) {
  const model::Prediction best = model::optimal(pb, mc, bc);
  const model::Prediction summa = model::predict(pb, mc, bc, 1, 1);
  csv.write(choice_record(pb, mc, bc, best, summa.t_total));
  std::printf("groups=auto: %dx%d (G = %d) on grid %dx%d, model %s: %.6g s vs SUMMA %.6g s\n", best.I, best.J,
              best.I * best.J, pb.P, pb.Q, model::bcast_name(bc), best.t_total, summa.t_total);
}

int run_table(const std::string& path, hympi::apps::RecordCsv& csv) {
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
    const model::Bcast bc = model::parse_bcast(bcast);
    const model::Prediction best = model::optimal(pb, mc, bc);
    csv.write(choice_record(pb, mc, bc, best, model::predict(pb, mc, bc, 1, 1).t_total));
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
  // The grid is a model input: any P x Q, whatever ranks run the tool.
  const hympi::apps::Problem p = hympi::apps::check_problem_options(o.problem, comm_size, hympi::apps::GridRanks::any);
  model::Problem pb;
  pb.P = p.P, pb.Q = p.Q;
  pb.m = static_cast<double>(p.m), pb.n = static_cast<double>(p.n), pb.k = static_cast<double>(p.k);
  pb.b = static_cast<double>(p.b), pb.M = static_cast<double>(p.M);
  return pb;
}

int run(Options& o) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  int size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const model::Problem pb = check_options(o, size);
  const auto info = hympi::apps::gather_run_info(hympi::Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size)));
  auto csv = hympi::apps::RecordCsv::open(MPI_COMM_WORLD, o.common.csv, choice_record(pb, {}, o.bcast, {}, 0), &info);
  if (!o.table.empty()) return run_table(o.table, csv);
  model::Machine mc;
  mc.alpha = o.alpha, mc.beta = o.beta, mc.gamma = o.gflops * 1e9;
  if (o.probe) {
    mc = hympi::hsumma::scalapack::agreed_machine(MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("machine: alpha=%.4g s beta=%.4g s/B (%.4g GB/s) gamma=%.4g Gflop/s; tuning file %s\n", mc.alpha,
                  mc.beta, 1e-9 / mc.beta, mc.gamma / 1e9, hympi::hsumma::scalapack::tuning_file_path().c_str());
  }
  if (rank == 0) print_choice(pb, mc, o.bcast, csv);
  return hympi::apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
