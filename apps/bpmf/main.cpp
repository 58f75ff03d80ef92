// hympi-bpmf: distributed BPMF (Gibbs sampling) with a pure or hybrid exchange of
// the latent vectors. One line per iteration, a summary, CSV rows, and optionally
// the averaged test predictions.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bpmf/matrix_market.hpp"
#include "bpmf/sampler.hpp"
#include "csv_writer.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "layout_options.hpp"
#include "load_data.hpp"
#include "run_info.hpp"

namespace {

struct Options {
  bpmf::app::InputSpec input;
  bool synthetic = false;
  bpmf::SamplerConfig sampler;
  std::string policy = "hybrid", sync = "flags";
  std::string output_dir = ".", csv, trace_csv;
  bool save_predictions = false, quiet = false;
  hympi::apps::LayoutOptions layout;
};

void add_options(CLI::App& app, Options& o) {
  auto* train =
      app.add_option("--train", o.input.train, "Training matrix (Matrix Market, optionally .gz)")->group("Input");
  auto* test = app.add_option("--test", o.input.test, "Test matrix (same shape or smaller)")->group("Input");
  train->needs(test);
  test->needs(train);
  app.add_flag("--synthetic", o.synthetic, "Use synthetic low-rank data (the default without --train)")
      ->excludes(train)
      ->group("Input");
  auto& s = o.input.synthetic;
  app.add_option("--synth-rows", s.rows, "Synthetic: rows")->capture_default_str()->group("Synthetic data");
  app.add_option("--synth-cols", s.cols, "Synthetic: columns")->capture_default_str()->group("Synthetic data");
  app.add_option("--synth-rank", s.rank, "Synthetic: true rank")->capture_default_str()->group("Synthetic data");
  app.add_option("--synth-density", s.density, "Synthetic: fraction of observed cells")
      ->capture_default_str()
      ->group("Synthetic data");
  app.add_option("--synth-noise", s.noise, "Synthetic: noise standard deviation")
      ->capture_default_str()
      ->group("Synthetic data");
  app.add_option("--synth-test-fraction", s.test_fraction, "Synthetic: fraction of observed cells held out")
      ->capture_default_str()
      ->group("Synthetic data");
  app.add_option("--synth-seed", s.seed, "Synthetic: generator seed")->capture_default_str()->group("Synthetic data");

  auto& c = o.sampler;
  app.add_option("-K,--latent", c.K, "Latent dimension")->capture_default_str()->group("Model");
  app.add_option("--alpha", c.alpha, "Observation noise precision")->capture_default_str()->group("Model");
  app.add_option("--burnin", c.burnin, "Burn-in iterations (not averaged)")->capture_default_str()->group("Model");
  app.add_option("--samples", c.samples, "Samples averaged after burn-in")->capture_default_str()->group("Model");
  app.add_option("--seed", c.seed, "Random seed (results are identical for any rank count and policy)")
      ->capture_default_str()
      ->group("Model");

  app.add_option("--policy", o.policy, "Exchange of latent vectors: pure (MPI_Allgatherv) | hybrid (node-shared)")
      ->check(CLI::IsMember({"pure", "hybrid"}))
      ->capture_default_str()
      ->group("Exchange");
  app.add_option("--sync", o.sync, "Node synchronization of the hybrid exchange: barrier | flags")
      ->check(CLI::IsMember({"barrier", "flags"}))
      ->capture_default_str()
      ->group("Exchange");
  app.add_flag("--barrier-timing", o.sampler.barrier_before_exchange,
               "Barrier before each exchange, timed as sync: exchange time = the collective alone")
      ->group("Exchange");
  hympi::apps::add_layout_options(app, o.layout);

  app.add_option("--output-dir", o.output_dir, "Directory for the CSV files and predictions")
      ->capture_default_str()
      ->group("Output");
  app.add_option("--csv", o.csv, "Append a summary row to this CSV (relative to --output-dir; - = stdout)")
      ->group("Output");
  app.add_option("--trace-csv", o.trace_csv, "Append one row per iteration to this CSV (relative to --output-dir)")
      ->group("Output");
  app.add_flag("--save-predictions", o.save_predictions,
               "Write the averaged test predictions to <output-dir>/predictions.mm")
      ->group("Output");
  app.add_flag("-q,--quiet", o.quiet, "No per-iteration lines")->group("Output");
}

std::string in_dir(const std::string& dir, const std::string& file) {
  if (file.empty() || file == "-" || file.front() == '/' || dir.empty() || dir == ".") return file;
  return dir + "/" + file;
}

std::string hex(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

// FNV-1a over the bits of the predictions: equal digests mean bitwise-equal results.
std::string digest(const std::vector<double>& values) {
  std::uint64_t h = 1469598103934665603ULL;
  for (double v : values) {
    unsigned char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ULL;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

double baseline_rmse(const bpmf::Ratings& train, const bpmf::Ratings& test) {
  const double mean = bpmf::mean_value(train);
  double s = 0.0;
  for (const auto& e : test.entries) s += (e.value - mean) * (e.value - mean);
  return test.entries.empty() ? NAN : std::sqrt(s / static_cast<double>(test.entries.size()));
}

void print_iteration(const bpmf::IterationReport& r, int total) {
  char avg[32] = "     -";
  if (!r.burnin) std::snprintf(avg, sizeof avg, "%6.4f", r.rmse_average);
  std::printf(
      "iter %4d/%d %-7s rmse %6.4f  avg %s  items/s %9.3e  time %.4f s = sampling %.4f + exchange %.4f + sync %.4f\n",
      r.iteration, total, r.burnin ? "burn-in" : "sample", r.rmse_sample, avg, r.items_per_second, r.seconds_wall,
      r.seconds_sampling, r.seconds_exchange, r.seconds_sync);
  std::fflush(stdout);
}

int run(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CLI::App app{
      "hympi-bpmf: distributed Bayesian probabilistic matrix factorization (Gibbs sampling) with a pure "
      "or hybrid MPI exchange of the latent vectors"};
  Options o;
  add_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) return app.exit(e);
    return e.get_exit_code();
  }

  // Input and option errors: identical on every rank, printed once.
  std::unique_ptr<bpmf::app::Dataset> data;
  const hympi::Topology* topo = nullptr;
  hympi::CollectiveOptions exchange;
  try {
    if (o.sampler.K < 1) throw std::runtime_error("-K/--latent must be >= 1 (got " + std::to_string(o.sampler.K) + ")");
    if (!(o.sampler.alpha > 0)) throw std::runtime_error("--alpha must be > 0");
    if (o.sampler.burnin < 0 || o.sampler.samples < 0) throw std::runtime_error("--burnin and --samples must be >= 0");
    exchange.policy = hympi::parse_policy(o.policy);
    exchange.sync = hympi::parse_sync(o.sync);
    const auto layout = o.layout.resolve();
    data = std::make_unique<bpmf::app::Dataset>(bpmf::app::load_dataset(o.input, MPI_COMM_WORLD));
    topo = &hympi::Topology::of(MPI_COMM_WORLD, layout);
  } catch (const std::exception& e) {
    if (rank == 0) std::cerr << "hympi-bpmf: error: " << e.what() << std::endl;
    return 1;
  }
  o.sampler.exchange = exchange;

  const auto info = hympi::apps::gather_run_info(*topo);
  bpmf::Sampler sampler(*topo, data->train, data->test, o.sampler);
  const int total = sampler.total_iterations();
  const double baseline = baseline_rmse(data->train, data->test);
  if (rank == 0) {
    std::printf(
        "hympi-bpmf: %s\n  train %lld x %lld, %zu ratings; test %zu ratings; mean %.4f (baseline RMSE %.4f)\n"
        "  K=%d alpha=%g burn-in=%d samples=%d seed=%llu; %d ranks on %d node(s) (%s), policy %s, sync %s\n",
        data->name.c_str(), static_cast<long long>(data->train.rows), static_cast<long long>(data->train.cols),
        data->train.entries.size(), data->test.entries.size(), sampler.train_mean(), baseline, o.sampler.K,
        o.sampler.alpha, o.sampler.burnin, o.sampler.samples, static_cast<unsigned long long>(o.sampler.seed),
        info.ranks, info.nodes, info.layout.c_str(), o.policy.c_str(), o.sync.c_str());
    std::fflush(stdout);
  }

  if (rank == 0 && (!o.csv.empty() || !o.trace_csv.empty() || o.save_predictions) && !o.output_dir.empty())
    std::filesystem::create_directories(o.output_dir);
  hympi::apps::CsvWriter trace;
  if (rank == 0)
    trace =
        hympi::apps::CsvWriter(in_dir(o.output_dir, o.trace_csv),
                               {"ranks", "layout", "policy", "sync", "K", "seed", "iteration", "burnin", "rmse_sample",
                                "rmse_average", "items_per_s", "seconds", "sampling", "exchange", "sync_seconds"});
  bpmf::IterationReport last;
  double seconds = 0, sampling = 0, exchange_s = 0, sync_s = 0;
  for (int it = 0; it < total; ++it) {
    last = sampler.step();
    seconds += last.seconds_wall;
    sampling += last.seconds_sampling;
    exchange_s += last.seconds_exchange;
    sync_s += last.seconds_sync;
    if (rank != 0) continue;
    if (!o.quiet) print_iteration(last, total);
    trace.row({std::to_string(info.ranks), info.layout, o.policy, o.sync, std::to_string(o.sampler.K),
               std::to_string(o.sampler.seed), std::to_string(last.iteration), last.burnin ? "1" : "0",
               hympi::apps::fmt(last.rmse_sample, 10), hympi::apps::fmt(last.rmse_average, 10),
               hympi::apps::fmt(last.items_per_second), hympi::apps::fmt(last.seconds_wall),
               hympi::apps::fmt(last.seconds_sampling), hympi::apps::fmt(last.seconds_exchange),
               hympi::apps::fmt(last.seconds_sync)});
  }
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const auto predictions = sampler.gather_predictions(0);
  if (rank != 0) return 0;

  const double items = static_cast<double>(data->train.rows + data->train.cols) * total;
  const double rmse_avg = o.sampler.samples > 0 ? last.rmse_average : last.rmse_sample;
  const std::string pred_digest = digest(predictions);
  std::printf(
      "summary: test RMSE %.6f (averaged over %d samples; last sample %.6f; training-mean baseline %.4f)\n"
      "summary: %d iterations in %.3f s, %.4f s/iteration (sampling %.4f, exchange %.4f, sync %.4f), "
      "%.4e items/s\n"
      "summary: latent matrices %zu bytes per node; predictions digest %s\n",
      rmse_avg, last.samples_averaged, last.rmse_sample, baseline, total, seconds, total ? seconds / total : 0.0,
      total ? sampling / total : 0.0, total ? exchange_s / total : 0.0, total ? sync_s / total : 0.0,
      seconds > 0 ? items / seconds : 0.0, sampler.latent_bytes_per_node(), pred_digest.c_str());

  // Every parameter and result, as (column, value) pairs so the two cannot drift apart.
  using hympi::apps::fmt;
  const auto per_iteration = [&](double x) { return fmt(total ? x / total : 0.0); };
  const std::vector<std::pair<const char*, std::string>> record = {
      {"dataset", data->name},
      {"rows", std::to_string(data->train.rows)},
      {"cols", std::to_string(data->train.cols)},
      {"train_entries", std::to_string(data->train.entries.size())},
      {"test_entries", std::to_string(data->test.entries.size())},
      {"K", std::to_string(o.sampler.K)},
      {"alpha", fmt(o.sampler.alpha)},
      {"burnin", std::to_string(o.sampler.burnin)},
      {"samples", std::to_string(o.sampler.samples)},
      {"seed", std::to_string(o.sampler.seed)},
      {"policy", o.policy},
      {"sync", o.sync},
      {"barrier_timing", o.sampler.barrier_before_exchange ? "1" : "0"},
      {"rmse_average", fmt(rmse_avg, 10)},
      {"rmse_last", fmt(last.rmse_sample, 10)},
      {"rmse_baseline", fmt(baseline, 10)},
      {"iterations", std::to_string(total)},
      {"seconds_total", fmt(seconds)},
      {"seconds_per_iteration", per_iteration(seconds)},
      {"sampling_per_iteration", per_iteration(sampling)},
      {"exchange_per_iteration", per_iteration(exchange_s)},
      {"sync_per_iteration", per_iteration(sync_s)},
      {"items_per_s", fmt(seconds > 0 ? items / seconds : 0.0)},
      {"latent_bytes_per_node", std::to_string(sampler.latent_bytes_per_node())},
      {"rmse_average_hex", hex(rmse_avg)},
      {"predictions_digest", pred_digest}};
  auto columns = hympi::apps::run_info_columns();
  auto fields = hympi::apps::run_info_fields(info);
  for (const auto& [column, value] : record) {
    columns.emplace_back(column);
    fields.push_back(value);
  }
  hympi::apps::CsvWriter csv(in_dir(o.output_dir, o.csv), columns);
  csv.row(fields);

  if (o.save_predictions) {
    bpmf::Ratings out = data->test;
    for (std::size_t k = 0; k < out.entries.size(); ++k) out.entries[k].value = predictions[k];
    const std::string path = in_dir(o.output_dir, "predictions.mm");
    bpmf::write_matrix_market(path, out,
                              "hympi-bpmf averaged test predictions, seed " + std::to_string(o.sampler.seed));
    std::printf("predictions written to %s\n", path.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const std::exception& e) {
    // Past input checking, a failure may hit one rank only: abort rather than hang.
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::cerr << "hympi-bpmf: error on rank " << rank << ": " << e.what() << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return code;
}
