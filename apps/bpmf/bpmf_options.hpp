// Command line of hympi-bpmf: the input (files or synthetic), the model, the
// exchange policy (typed straight into the sampler's configuration), the output,
// and the options every app shares.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "bpmf/sampler.hpp"
#include "common_options.hpp"
#include "load_data.hpp"

namespace bpmf::app {

// `hympi-bpmf predict`: means and standard deviations of given pairs from saved samples.
struct PredictOptions {
  bool chosen = false;  // the subcommand was given
  std::string model, pairs, mean_output = "predicted.mm", std_output = "predicted_std.mm";
};

struct Options {
  InputSpec input;
  bool synthetic = false;
  SamplerConfig sampler;  // checked by the sampler itself (bad values: exit 2)
  std::string noise;      // --noise as given (empty: fixed at --alpha); read_model_options() reads it
  std::string calibrate = "0";  // --calibrate as given; read_model_options() reads it (empty: refused)
  std::string output_dir = ".", trace_csv;
  bool save_predictions = false, quiet = false;
  PredictiveStd std_kind = PredictiveStd::with_noise;
  int checkpoint_every = 0, stop_after = -1;
  int save_samples_every = 0;
  std::string samples_dir;  // default <output-dir>/samples
  PredictOptions predict;
  std::string checkpoint_dir, resume;  // checkpoint_dir: --resume, else <output-dir>/checkpoint, when empty
  hympi::apps::CommonOptions common;
};

void add_options(CLI::App& app, Options& options);
// Fills the defaults that depend on other options (the checkpoint directory).
void resolve_paths(Options& options);
// Reads --noise and --calibrate into the sampler's configuration; throws
// hympi::Error(invalid_argument) (the same on every rank: each parses the same command
// line; the sampler checks the fraction's range).
void read_model_options(Options& options);

// `file` inside `dir` unless it is absolute, "-" or empty.
std::string in_dir(const std::string& dir, const std::string& file);

}  // namespace bpmf::app
