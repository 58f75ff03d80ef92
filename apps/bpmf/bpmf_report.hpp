// Output of hympi-bpmf: the run header, one line (and trace record) per iteration,
// the summary, and the summary record (the run metadata is added by RecordCsv).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "bpmf/calibration.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf_options.hpp"
#include "load_data.hpp"
#include "process_memory.hpp"
#include "record.hpp"
#include "run_info.hpp"

namespace bpmf::app {

// Seconds of all iterations on this rank (wall time: max over ranks once reduced).
struct Totals {
  int iterations = 0;
  double seconds = 0, sampling = 0, exchange = 0, sync = 0;
  void add(const IterationReport& r);
  double per_iteration(double x) const { return iterations ? x / iterations : 0.0; }
};

// What the summary says, computed on the root once the run is over.
struct Summary {
  double rmse_average = 0, rmse_last = 0, rmse_baseline = 0;
  int samples_averaged = 0;
  double items_per_second = 0;
  std::size_t latent_bytes_per_node = 0, ratings_bytes_per_node = 0;  // rank 0's node
  hympi::apps::ProcessMemory node_memory;                             // summed over the processes of rank 0's node
  int node_ranks = 0;
  std::string digest;      // of the predictions' bits: equal digests = bitwise-equal results
  std::string std_digest;  // of the predictive standard deviations' bits
  Coverage coverage;       // of the 68% and 95% predictive intervals on the test set
  PredictiveStd std_kind = PredictiveStd::with_noise;
  double precision_mean = 0;  // posterior mean of the noise precision over the samples (fixed: alpha)
  // --calibrate: the multipliers from the held-out training ratings and the test
  // coverage of the intervals mean +- multiplier * std (ratings 0: no calibration;
  // multipliers NaN: held out, but no post-burn-in sample to calibrate on).
  Calibration calibration;
  Coverage calibrated_coverage;
  bool calibrated() const { return calibration.ratings > 0 && !std::isnan(calibration.multiplier68); }
};

// RMSE of predicting every test value by the training mean.
double baseline_rmse(double train_mean, const Ratings& test);
// FNV-1a over the bits of `values`.
std::string digest(const std::vector<double>& values);

void print_header(const Dataset& data, const Sampler& sampler, const Options& o, const hympi::apps::RunInfo& info,
                  double baseline);
void print_iteration(const IterationReport& r, int total);
void print_summary(const Summary& s, const Totals& t);

// One per iteration; its own small set of identifying columns, no run metadata.
hympi::apps::Record trace_record(const Options& o, const hympi::apps::RunInfo& info, const IterationReport& r);
hympi::apps::Record summary_record(const Dataset& data, const Options& o, const Summary& s, const Totals& t);

}  // namespace bpmf::app
