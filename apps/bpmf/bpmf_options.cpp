#include "bpmf_options.hpp"

namespace bpmf::app {

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

  using hympi::apps::add_enum_option;
  add_enum_option(app, "--policy", c.exchange.policy, hympi::apps::policy_names(),
                  "pure: MPI_Allgatherv of the latent vectors, training ratings per rank | hybrid: latent vectors "
                  "and training ratings once per node (node-shared)")
      ->group("Exchange");
  add_enum_option(app, "--sync", c.exchange.sync, hympi::apps::sync_names(),
                  "Node synchronization of the hybrid exchange")
      ->group("Exchange");
  app.add_flag("--barrier-timing", c.barrier_before_exchange,
               "Barrier before each exchange, timed as sync: exchange time = the collective alone")
      ->group("Exchange");

  app.add_option("--output-dir", o.output_dir, "Directory for the CSV files and predictions")
      ->capture_default_str()
      ->group("Output");
  hympi::apps::add_common_options(app, o.common,
                                  "Append a summary row to this CSV (relative to --output-dir; - = stdout)");
  app.add_option("--trace-csv", o.trace_csv, "Append one row per iteration to this CSV (relative to --output-dir)")
      ->group("Output");
  app.add_flag("--save-predictions", o.save_predictions,
               "Write the averaged test predictions to <output-dir>/predictions.mm and their standard deviations "
               "to predictions_std.mm")
      ->group("Output");
  add_enum_option(
      app, "--predictive-std", o.std_kind,
      std::map<std::string, PredictiveStd>{{"noise", PredictiveStd::with_noise}, {"latent", PredictiveStd::latent}},
      "Standard deviation of each prediction (and of the coverage's intervals): noise = of a new "
      "observation, sample variance of u.v + 1/alpha | latent = of u.v alone")
      ->group("Output");
  app.add_option("--checkpoint-every", o.checkpoint_every,
                 "Write the chain state every N iterations, at the end and on SIGTERM (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group("Checkpoint");
  app.add_option("--checkpoint-dir", o.checkpoint_dir,
                 "Directory of the checkpoint (default: the --resume directory, else <output-dir>/checkpoint)")
      ->group("Checkpoint");
  app.add_option("--resume", o.resume,
                 "Continue the chain checkpointed in this directory (same data, K, alpha, burn-in and seed; any "
                 "rank count and policy)")
      ->group("Checkpoint");
  app.add_option("--stop-after", o.stop_after, "Testing: exit hard (no checkpoint, no cleanup) after iteration N")
      ->group("Checkpoint");
  app.add_flag("-q,--quiet", o.quiet, "No per-iteration lines")->group("Output");
}

void resolve_paths(Options& o) {
  if (o.checkpoint_dir.empty()) o.checkpoint_dir = o.resume.empty() ? in_dir(o.output_dir, "checkpoint") : o.resume;
}

std::string in_dir(const std::string& dir, const std::string& file) {
  if (file.empty() || file == "-" || file.front() == '/' || dir.empty() || dir == ".") return file;
  return dir + "/" + file;
}

}  // namespace bpmf::app
