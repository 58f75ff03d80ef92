// hympi-bpmf: distributed BPMF (Gibbs sampling) with a pure or hybrid exchange of
// the latent vectors. One line per iteration, a summary, CSV records, and
// optionally the averaged test predictions. Options: bpmf_options.hpp; output:
// bpmf_report.hpp; the skeleton and exit codes: apps/common/app.hpp.
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "app.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf/saved_samples.hpp"
#include "bpmf_options.hpp"
#include "bpmf_report.hpp"
#include "chain_checkpoints.hpp"
#include "hympi/topology.hpp"
#include "load_data.hpp"
#include "on_root.hpp"
#include "predict_command.hpp"
#include "process_memory.hpp"
#include "record.hpp"
#include "run_info.hpp"
#include "stop_signals.hpp"

namespace bpmf::app {
namespace {

using hympi::apps::RecordCsv;

// The test entries' positions with `values`, as Matrix Market.
void save_values(const Options& o, const Dataset& data, const std::vector<double>& values, const std::string& file,
                 const std::string& what) {
  Ratings out = data.test;
  for (std::size_t k = 0; k < out.entries.size(); ++k) out.entries[k].value = values[k];
  const std::string path = in_dir(o.output_dir, file);
  write_matrix_market(path, out, "hympi-bpmf " + what + ", seed " + std::to_string(o.sampler.seed));
  std::printf("%s written to %s\n", what.c_str(), path.c_str());
}

// Every --save-samples-every-th post-burn-in sample, written by rank 0 (U and V are whole on every rank).
void save_sample_if_due(const Options& o, const Sampler& sampler, const IterationReport& r, const ModelInfo& info,
                        ChainCheckpoints& checkpoints, int rank) {
  if (o.save_samples_every <= 0 || r.burnin || r.samples_averaged % o.save_samples_every != 0) return;
  on_root(MPI_COMM_WORLD, rank, [&] {
    checkpoints.keep_locks();
    save_sample(o.samples_dir, r.samples_averaged, info, sampler.rows_latent(), sampler.cols_latent(),
                sampler.hyperparameters(0), sampler.hyperparameters(1), sampler.noise_precision());
  });
}

// Collective: a stop requested while the data loaded or the sampler was built ends
// the run like any stop (exit 1), before the chain claims its directories: no
// iteration ran, so there is no checkpoint to write and the same command starts over.
bool stopped_before_start(const Options& o, MPI_Comm world, int rank) {
  if (o.checkpoint_every <= 0) return false;
  const StopRequest stop = agree_on_stop(world);
  if (stop.requested && rank == 0) {
    std::printf(
        "stopped by %s while loading the data, before any iteration; no checkpoint written (nothing ran, "
        "nothing to save): run the same command again\n",
        signal_name(stop.signal));
    std::fflush(stdout);
  }
  return stop.requested != 0;
}

// Adaptive noise: alpha is the chain's starting precision ((SN_INIT + 1) / var).
ModelInfo model_info(const Options& o, const Dataset& data, const Sampler& sampler) {
  ModelInfo m{o.sampler.K,          sampler.initial_precision(),
              sampler.train_mean(), data.train.rows,
              data.train.cols,      o.sampler.seed,
              o.sampler.burnin};
  m.noise = o.sampler.noise.kind;
  m.calibrate = o.sampler.calibrate;
  if (m.noise == NoiseKind::adaptive) {
    m.sn_init = o.sampler.noise.sn_init;
    m.sn_max = o.sampler.noise.sn_max;
  }
  return m;
}

int run(Options& o) {
  if (o.predict.chosen) return run_predict(o);
  const MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(world, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(world, &size));

  // Bad options or input throw hympi::Error(invalid_argument) on every rank (exit 2);
  // the sampler checks its own configuration.
  read_model_options(o);
  const auto layout = o.common.layout.resolve(size);
  if (o.checkpoint_every > 0) catch_stop_signals();  // before the load: a stop then must not kill the ranks
  Dataset data = load_dataset(o.input, world);
  if (stopped_before_start(o, world, rank)) return hympi::apps::kCheckFailed;
  const hympi::Topology& topo = hympi::Topology::of(world, layout);
  const auto info = hympi::apps::gather_run_info(topo);
  resolve_paths(o);
  Sampler sampler(topo, data.training(), data.test, o.sampler);
  if (stopped_before_start(o, world, rank)) return hympi::apps::kCheckFailed;
  const ModelInfo saved_model = model_info(o, data, sampler);
  ChainCheckpoints checkpoints(o, data, saved_model, world);  // claims the chain's directories
  checkpoints.resume(sampler);
  const double baseline = baseline_rmse(sampler.train_mean(), data.test);  // of the ratings trained on
  data.release_train();  // the sampler's TrainingMatrix is the one copy kept

  if ((!o.common.csv.empty() || !o.trace_csv.empty() || o.save_predictions) && !o.output_dir.empty())
    on_root(world, rank, [&] { std::filesystem::create_directories(o.output_dir); });
  auto trace = RecordCsv::open(world, in_dir(o.output_dir, o.trace_csv), trace_record(o, info, {}), nullptr);
  auto csv = RecordCsv::open(world, in_dir(o.output_dir, o.common.csv), summary_record(data, o, {}, {}), &info);
  if (rank == 0) print_header(data, sampler, o, info, baseline);
  if (rank == 0 && !checkpoints.chain().empty()) std::printf("  chain %s\n", checkpoints.chain().c_str());

  const int total = sampler.total_iterations();
  IterationReport last;
  Totals totals;
  while (sampler.iteration() < total) {
    last = sampler.step();
    totals.add(last);
    if (rank == 0 && !o.quiet) print_iteration(last, total);
    trace.write(trace_record(o, info, last));
    save_sample_if_due(o, sampler, last, saved_model, checkpoints, rank);
    if (checkpoints.after_iteration(sampler)) return hympi::apps::kCheckFailed;  // not finished: resume later
  }
  if (totals.iterations == 0) last = sampler.current_report();  // resumed at the end of the chain
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &totals.seconds, 1, MPI_DOUBLE, MPI_MAX, world));
  const auto predictions = sampler.gather_predictive(o.std_kind, 0);

  Summary s;
  const double items = static_cast<double>(data.train.rows + data.train.cols) * total;
  s.rmse_average = o.sampler.samples > 0 ? last.rmse_average : last.rmse_sample;
  s.rmse_last = last.rmse_sample;
  s.rmse_baseline = baseline;
  s.samples_averaged = last.samples_averaged;
  s.items_per_second = totals.seconds > 0 ? items / totals.seconds : 0.0;
  s.latent_bytes_per_node = sampler.latent_bytes_per_node();
  s.ratings_bytes_per_node = sampler.ratings_bytes_per_node();
  s.node_memory = hympi::apps::sum_process_memory(topo.node_comm());  // rank 0 reports its node
  s.node_ranks = topo.node_size();
  if (rank == 0) {
    s.digest = digest(predictions.mean);
    s.std_digest = digest(predictions.std);
    s.coverage = interval_coverage(data.test, predictions.mean, predictions.std);
    s.std_kind = o.std_kind;
    s.precision_mean = sampler.precision_mean();
    if (o.sampler.calibrate > 0 && s.samples_averaged > 0) {
      s.calibration =
          calibrate(sampler.calibration_ratings(), predictions.calibration_mean, predictions.calibration_std);
      s.calibrated_coverage = interval_coverage(data.test, predictions.mean, predictions.std,
                                                s.calibration.multiplier68, s.calibration.multiplier95);
    } else if (o.sampler.calibrate > 0) {  // no sample, no predictive std to calibrate: n/a
      s.calibration.ratings = sampler.calibration_ratings().entries.size();
      s.calibration.multiplier68 = s.calibration.multiplier95 = NAN;
    }
    print_summary(s, totals);
    csv.write(summary_record(data, o, s, totals));
  }
  // The multipliers beside the samples they calibrate, with the std they multiply and
  // the number of samples that std came from (finite once there is a sample: the
  // split refuses fewer than 20 held-out ratings, so the order statistics exist).
  if (o.sampler.calibrate > 0)
    on_root(world, rank, [&] {
      if (!s.calibrated()) return;
      ModelInfo calibrated = saved_model;
      calibrated.calibration_ratings = static_cast<std::int64_t>(s.calibration.ratings);
      calibrated.multiplier_68 = s.calibration.multiplier68;
      calibrated.multiplier_95 = s.calibration.multiplier95;
      calibrated.calibrated_std = o.std_kind;
      calibrated.calibration_samples = s.samples_averaged;
      checkpoints.record_calibration(calibrated);
    });
  if (o.save_predictions)
    on_root(world, rank, [&] {
      save_values(o, data, predictions.mean, "predictions.mm", "averaged test predictions");
      save_values(o, data, predictions.std, "predictions_std.mm",
                  std::string("predictive standard deviations (") + to_string(o.std_kind) + ")");
    });
  return hympi::apps::kSuccess;
}

}  // namespace
}  // namespace bpmf::app

int main(int argc, char** argv) {
  const hympi::apps::AppInfo app{"hympi-bpmf",
                                 "hympi-bpmf: distributed Bayesian probabilistic matrix factorization (Gibbs "
                                 "sampling) with a pure or hybrid MPI exchange of the latent vectors"};
  return hympi::apps::run_app<bpmf::app::Options>(argc, argv, app, bpmf::app::add_options, bpmf::app::run);
}
