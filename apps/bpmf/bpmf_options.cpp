#include "bpmf_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "bpmf/calibration.hpp"
#include "hympi/error.hpp"

namespace bpmf::app {

namespace {
void add_predict_command(CLI::App& app, Options& o) {
  auto* sub = app.add_subcommand("predict",
                                 "Mean and standard deviation of the predictions of given (row, column) pairs from "
                                 "the samples saved by --save-samples-every (any rank count)");
  auto& p = o.predict;
  sub->add_option("--model", p.model, "Directory of the saved samples")->required();
  sub->add_option("--pairs", p.pairs, "Matrix Market file of the pairs (values ignored; a test file will do)")
      ->required();
  sub->add_option("--mean-output", p.mean_output, "Matrix Market file of the means")->capture_default_str();
  sub->add_option("--std-output", p.std_output, "Matrix Market file of the standard deviations")->capture_default_str();
  hympi::apps::add_enum_option(
      *sub, "--predictive-std", o.std_kind, hympi::apps::name_map<PredictiveStd>(),
      "noise: of a new observation (u.v variance + the samples' mean 1/alpha) | latent: of u.v "
      "alone");
  sub->callback([&p] { p.chosen = true; });
}
}  // namespace

void add_options(CLI::App& app, Options& o) {
  auto* train =
      app.add_option("--train", o.input.train, "Training matrix (Matrix Market, optionally .gz)")->group("Input");
  auto* test = app.add_option("--test", o.input.test, "Test matrix (same shape or smaller)")->group("Input");
  train->needs(test);
  test->needs(train);
  app.add_flag("--synthetic", o.synthetic, "Use synthetic low-rank data (the default without --train)")
      ->excludes(train)
      ->group("Input");
  // The synthetic data's and the model's options show their defaults, each block in its
  // --help group (the app's defaults set once per block, then restored).
  const CLI::OptionDefaults plain = *app.option_defaults();
  app.option_defaults()->always_capture_default()->group("Synthetic data");
  auto& s = o.input.synthetic;
  app.add_option("--synth-rows", s.rows, "Synthetic: rows");
  app.add_option("--synth-cols", s.cols, "Synthetic: columns");
  app.add_option("--synth-rank", s.rank, "Synthetic: true rank");
  app.add_option("--synth-density", s.density, "Synthetic: fraction of observed cells");
  app.add_option("--synth-noise", s.noise, "Synthetic: noise standard deviation");
  app.add_option("--synth-test-fraction", s.test_fraction, "Synthetic: fraction of observed cells held out");
  app.add_option("--synth-seed", s.seed, "Synthetic: generator seed");

  app.option_defaults()->group("Model");
  auto& c = o.sampler;
  app.add_option("-K,--latent", c.K, "Latent dimension");
  auto* alpha = app.add_option("--alpha", c.alpha, "Observation noise precision (= --noise fixed:ALPHA)");
  app.add_option("--burnin", c.burnin, "Burn-in iterations (not averaged)");
  app.add_option("--samples", c.samples, "Samples averaged after burn-in");
  app.add_option("--seed", c.seed, "Random seed (results are identical for any rank count and policy)");
  app.add_option("--calibrate", o.calibrate,
                 "Split conformal calibration of the predictive intervals: hold this FRACTION of the training "
                 "ratings out of the chain (chosen by a hash of row, column and --seed: the same on any rank count "
                 "and policy), predict them every sample like the test set, and report intervals mean +- m*std whose "
                 "multipliers m are the held-out |y - mean|/std quantiles (and their test coverage beside the "
                 "Gaussian ones). 0: off. Suggested for real data: 0.05 (ChEMBL-346, K=32, adaptive noise: the "
                 "Gaussian intervals cover 72.2% / 95.4%, the calibrated ones 67.7% / 95.2%; the cost is that the "
                 "chain trains on 5% fewer ratings: test RMSE 0.903 instead of 0.893; 0.10: 0.914). The coverage is "
                 ">= p on average over holdouts; one run's scatters around p (sd ~ sqrt(p(1-p)/n): 0.9 points at "
                 "68% for n = 2456). Valid only for a test split random by entry, like the holdout (not a "
                 "cold-start or time split); the holdout depends on --seed. 0 <= FRACTION < 0.5")
      ->type_name("FRACTION")
      ->default_str("0");
  *app.option_defaults() = plain;
  app.add_option("--noise", o.noise,
                 "fixed:ALPHA (the default, fixed:2 = --alpha 2: what runs and checkpoints before this option meant) "
                 "| adaptive[:SN_INIT,SN_MAX] (recommended for real data; default 1,10): the precision drawn every "
                 "iteration from its Gamma conditional given the training residuals (prior: one observation with the "
                 "training data's variance var), started at (SN_INIT+1)/var, capped at (SN_MAX+1)/var (SMURFF's SN: "
                 "noise variance var/(SN+1))")
      ->excludes(alpha)
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
  add_predict_command(app, o);
  hympi::apps::add_common_options(app, o.common,
                                  "Append a summary row to this CSV (relative to --output-dir; - = stdout)");
  app.add_option("--trace-csv", o.trace_csv, "Append one row per iteration to this CSV (relative to --output-dir)")
      ->group("Output");
  app.add_flag("--save-predictions", o.save_predictions,
               "Write the averaged test predictions to <output-dir>/predictions.mm and their standard deviations "
               "to predictions_std.mm")
      ->group("Output");
  add_enum_option(app, "--predictive-std", o.std_kind, hympi::apps::name_map<PredictiveStd>(),
                  "Standard deviation of each prediction (and of the coverage's intervals): noise = of a new "
                  "observation, sample variance of u.v + 1/alpha (adaptive noise: the samples' mean of 1/alpha) | "
                  "latent = of u.v alone")
      ->group("Output");
  app.add_option("--checkpoint-every", o.checkpoint_every,
                 "Write the chain state every N iterations, at the end, and when told to stop (SIGTERM, SIGINT, "
                 "SIGUSR1; then exit 1; told while the data are loading: exit 1 once they are read, nothing to "
                 "write) (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group("Checkpoint");
  app.add_option("--checkpoint-dir", o.checkpoint_dir,
                 "Directory of the checkpoint (default: the --resume directory, else <output-dir>/checkpoint); "
                 "locked while the chain runs, refused if it holds another chain's checkpoint")
      ->group("Checkpoint");
  app.add_option("--resume", o.resume,
                 "Continue the chain checkpointed in this directory (same data, K, noise, burn-in and seed; any "
                 "rank count and policy; the chain keeps its chain id)")
      ->group("Checkpoint");
  app.add_option("--stop-after", o.stop_after, "Testing: exit hard (no checkpoint, no cleanup) after iteration N")
      ->group("Checkpoint");
  app.add_option("--save-samples-every", o.save_samples_every,
                 "Save every N-th post-burn-in sample (U, V, hyperparameters as .npy) to --samples-dir (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group("Output");
  app.add_option("--samples-dir", o.samples_dir,
                 "Directory of the saved samples (default: <output-dir>/samples); locked while the chain runs, "
                 "refused if it holds another run's samples (a model.txt of another chain, or of none that differs "
                 "in data, K, alpha, seed or burn-in)")
      ->group("Output");
  app.add_flag("-q,--quiet", o.quiet, "No per-iteration lines")->group("Output");
  app.footer(
      "Stopping a chain safely (--checkpoint-every > 0): send ONE signal and wait for exit 1 and the line "
      "'stopped by ... checkpoint in DIR'; continue with --resume DIR. Best: SIGUSR1 to mpirun, mpiexec or srun "
      "(all forward it and kill nothing) or to the ranks. A stop sent while the data are loading takes effect "
      "once they are read: exit 1, 'stopped by ... while loading the data', no checkpoint (nothing ran). "
      "Never SIGTERM to srun (it kills the ranks). SIGTERM to MPICH's mpiexec is safe; to Open MPI 4's mpirun "
      "it also works, but mpirun SIGKILLs the ranks about 2 s later (raise OMPI_MCA_odls_base_sigkill_timeout "
      "above one iteration plus a checkpoint write) and a second signal within 5 s kills them about 1 s later: "
      "never send two, and use 'timeout --foreground -s USR1' (plain timeout signals mpirun twice). Under Open "
      "MPI's mpirun, Ctrl-Z and then fg or bg also stops the chain (with a checkpoint). See bpmf/README.md, "
      "'Stopping a chain'.");
}

void read_model_options(Options& o) {
  if (!o.noise.empty()) o.sampler.noise = parse_noise(o.noise, o.sampler.alpha);
  // Read whole (CLI11 would answer "Could not convert" without the tool's prefix); the
  // default is "0", so an empty value was given as such and is refused, not taken as off.
  const std::string& text = o.calibrate;
  const auto refuse = [&](const std::string& why) {
    throw hympi::Error(hympi::ErrorCode::invalid_argument,
                       "--calibrate '" + text + "' " + why + " (a fraction >= 0 and < 0.5; 0: off)");
  };
  if (text.empty()) refuse("is not a number: empty");
  // from_chars takes no '+' sign; one before a digit or '.' is the user's plain "+0.05".
  const char *begin = text.data(), *end = begin + text.size();
  if (*begin == '+' && end - begin > 1 && begin[1] != '-' && begin[1] != '+') ++begin;
  const auto r = std::from_chars(begin, end, o.sampler.calibrate);
  if (r.ec == std::errc::result_out_of_range && r.ptr == end)  // strtod says which way it fell out
    refuse(std::fabs(std::strtod(begin, nullptr)) < 1 ? "is too small: it underflows a double"
                                                      : "is too large: it overflows a double");
  if (r.ec != std::errc() || r.ptr != end) refuse("is not a number: expected a plain decimal such as 0.05");
  check_calibration_fraction(o.sampler.calibrate);
}

void resolve_paths(Options& o) {
  if (o.samples_dir.empty()) o.samples_dir = in_dir(o.output_dir, "samples");
  if (o.checkpoint_dir.empty()) o.checkpoint_dir = o.resume.empty() ? in_dir(o.output_dir, "checkpoint") : o.resume;
}

std::string in_dir(const std::string& dir, const std::string& file) {
  if (file.empty() || file == "-" || file.front() == '/' || dir.empty() || dir == ".") return file;
  return dir + "/" + file;
}

}  // namespace bpmf::app
