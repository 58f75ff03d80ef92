// The distributed BPMF Gibbs sampler. Rows and columns are partitioned over the
// ranks of a topology in contiguous ranges balanced by rating counts; each
// half-iteration draws the side's Normal-Wishart hyperparameters from the exact
// global statistics, samples the rank's items into the slot of a hympi::Allgatherv,
// and runs it. The exchange policy (pure | hybrid) is a runtime option of that
// collective, so Ori_BPMF and Hy_BPMF are the same sampler. The same policy decides
// where the training ratings live (TrainingMatrix): once per node for hybrid.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "bpmf/exact_sum.hpp"
#include "bpmf/item_sampler.hpp"
#include "bpmf/noise.hpp"
#include "bpmf/normal_wishart.hpp"
#include "bpmf/predictive.hpp"
#include "bpmf/ratings.hpp"
#include "bpmf/training_matrix.hpp"
#include "hympi/collectives.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"

namespace bpmf {

struct SamplerConfig {
  int K = 32;
  double alpha = 2.0;  // observation noise precision (noise.kind fixed)
  NoiseConfig noise;   // fixed (alpha) or adaptive (a precision sampled every iteration)
  int burnin = 50;
  int samples = 200;
  std::uint64_t seed = 42;
  // Split conformal calibration (calibration.hpp): this fraction of the training
  // ratings, chosen by a hash of (row, column, seed), is held out of the chain and
  // predicted like the test entries. 0: off; 0 <= calibrate < 0.5.
  double calibrate = 0.0;
  hympi::CollectiveOptions exchange;
  // Time a barrier before each exchange (counted as sync), so that the exchange time
  // is the collective alone and load imbalance shows up as sync. Off: no extra barrier.
  bool barrier_before_exchange = false;
};

struct IterationReport {
  int iteration = 0;          // 1-based
  bool burnin = true;         // this sample is not averaged
  int samples_averaged = 0;   // post-burn-in samples in the running average
  double rmse_sample = 0.0;   // test RMSE of this sample's predictions
  double rmse_average = 0.0;  // test RMSE of the running average (NaN during burn-in)
  double alpha = 0.0;         // the noise precision after this iteration (adaptive: its draw)
  // Adaptive: the mean (n + 1) / (var + SSE) of the Gamma conditional that draw came
  // from, before the cap (when it lies above SN_MAX's cap, the cap binds); fixed: NaN.
  double alpha_conditional = std::numeric_limits<double>::quiet_NaN();
  double seconds_wall = 0.0;                                                  // this iteration on this rank
  double seconds_sampling = 0.0, seconds_exchange = 0.0, seconds_sync = 0.0;  // max over ranks
  double items_per_second = 0.0;  // (rows + cols) / max wall time over ranks
};

// Per test entry, in test-file order.
struct Predictions {
  std::vector<double> mean;  // the post-burn-in average (the last sample during burn-in)
  std::vector<double> std;   // the predictive standard deviation (NaN before the first sample)
  // The same of the calibration holdout, in the order of calibration_ratings().
  std::vector<double> calibration_mean, calibration_std;
};

// Everything a chain needs to continue: the random streams are keyed by (seed,
// iteration, side, item), so the iteration is the whole generator state; the
// hyperparameters are drawn afresh from U and V in every half-iteration.
struct ChainState {
  int iteration = 0, averaged = 0;
  std::vector<double> U, V;  // rows x K, cols x K, item-major
  // Per test entry, in test-file order, then per held-out calibration rating (in its
  // order): the sum of the predictions (the mean's bits) and their running moments.
  std::vector<double> prediction_sum, moment_mean, moment_m2;
  // The noise precision drawn in the last iteration (the next one samples with it;
  // fixed noise: alpha) and, over the post-burn-in samples in order, the sums of
  // alpha_s and 1 / alpha_s (posterior mean; predictive noise variance).
  double alpha = 0.0, precision_sum = 0.0, inverse_precision_sum = 0.0;
};

class Sampler {
 public:
  // Collective over topo.comm(). `train` and `test` are the whole matrices, identical
  // on every rank; the test shape must lie within the train shape. `train` is copied
  // into the TrainingMatrix: the caller may free it once the sampler exists. Throws
  // hympi::Error(invalid_argument) (same on every rank) for K < 1, alpha <= 0, burnin < 0, samples < 0,
  // burnin + samples past INT_MAX.
  Sampler(const hympi::Topology& topo, const Ratings& train, const Ratings& test, SamplerConfig config);
  // The same from a replayable source (a generator streams into the node copy: no rank
  // holds the training entries).
  Sampler(const hympi::Topology& topo, const TrainingInput& train, const Ratings& test, SamplerConfig config);
  ~Sampler();

  // One Gibbs iteration (rows then columns). Collective.
  IterationReport step();

  // Collective: the test RMSE of the current state (as step() reported it), no timings.
  IterationReport current_report();

  int iteration() const { return iteration_; }
  int total_iterations() const { return config_.burnin + config_.samples; }
  const SamplerConfig& config() const { return config_; }
  // The noise precision the next iteration samples with: alpha (fixed), else the last
  // draw ((SN_INIT + 1) / var before the first iteration).
  double noise_precision() const { return alpha_; }
  // Adaptive noise: the precision the chain starts at and its cap; fixed: alpha, alpha.
  double initial_precision() const { return alpha_init_; }
  double max_precision() const { return alpha_max_; }
  // The posterior mean of the noise precision over the post-burn-in samples (NaN before the first).
  double precision_mean() const;
  double train_mean() const { return mean_; }
  // The ratings the chain trains on (the training set less the calibration holdout).
  std::int64_t training_ratings() const { return train_->ratings(); }
  // The training ratings held out for calibration (config().calibrate), in the order
  // of the training source; the same on every rank. Empty when calibrate is 0.
  const Ratings& calibration_ratings() const { return held_out_; }
  // Item ranges [begin, end) of this rank: side 0 = rows, 1 = cols.
  std::int64_t range_begin(int side) const { return sides_[side].begin; }
  std::int64_t range_end(int side) const { return sides_[side].end; }
  // Bytes of latent-matrix memory on this rank's node (pure: a copy per rank).
  std::size_t latent_bytes_per_node() const;
  // Bytes of the training ratings (both orientations) on this rank's node.
  std::size_t ratings_bytes_per_node() const { return train_->bytes_per_node(); }

  // Collective: predictions for every test entry in test-file order on `root`
  // (empty elsewhere): the post-burn-in average, or the last sample during burn-in.
  std::vector<double> gather_predictions(int root = 0) const;
  // Collective: means and predictive standard deviations on `root` (empty elsewhere),
  // of the test entries and of the calibration holdout.
  Predictions gather_predictive(PredictiveStd kind, int root = 0) const;

  // Collective: the chain state on `root` (empty vectors elsewhere).
  ChainState gather_state(int root = 0) const;
  // Collective: continue from `state` (the same on every rank, from any rank count
  // or policy). Throws hympi::Error(invalid_argument), the same on every rank, when
  // its sizes do not fit this problem or its iteration lies beyond the chain.
  void restore(const ChainState& state);

  // The current latent matrices (rows x K and cols x K, item-major), valid until the next step().
  const double* rows_latent() const;
  const double* cols_latent() const;
  // The hyperparameters (mu, Lambda) of the last draw: side 0 = rows, 1 = cols.
  const Hyper& hyperparameters(int side) const { return sides_[side].hyper; }

 private:
  struct SideData {
    std::int64_t items = 0, begin = 0, end = 0;
    std::unique_ptr<hympi::Allgatherv> exchange;
    Hyper hyper;  // drawn in the last half-iteration of this side
  };
  struct TestEntry {
    std::int32_t row, col;
    double value;
    std::int64_t position;  // in the test file; test_total_ + k: held-out rating k
  };

  void build_side(int side);
  void initialise();
  double sample_side(int side, double& seconds_sync);  // returns seconds of sampling
  void predict(IterationReport& report, double& seconds_sync);
  void initialise_noise();  // adaptive: var, start and cap
  void add_squared_residuals(const double* other, const std::int32_t* index, const double* value, std::int64_t n,
                             const double* v);  // of one column's ratings, into residuals_
  double draw_noise(double& seconds_sync);  // adaptive: the precision given this iteration's U, V; its conditional mean
  void measure_rmse(IterationReport& report, double& seconds_sync);               // from the current predictions
  double prediction(const TestEntry& e, const double* U, const double* V) const;  // of one sample
  // Rank 0 gets the local per-entry `values` of every rank placed in test-file order.
  std::vector<std::vector<double>> gather_by_position(const std::vector<const std::vector<double>*>& values,
                                                      int root) const;
  void set_latent(int side, const std::vector<double>& whole);

  const hympi::Topology& topo_;
  SamplerConfig config_;
  NormalWishartPrior prior_;
  double mean_ = 0.0;
  std::unique_ptr<TrainingMatrix> train_;
  std::unique_ptr<ExactSumReduction> hyper_stats_, test_errors_;  // count, sum, outer sum; squared errors
  std::unique_ptr<ExactSumReduction> residual_stats_;             // adaptive noise: training residuals squared
  ExactSums residuals_;
  double train_variance_ = 0.0, alpha_ = 0.0, alpha_init_ = 0.0, alpha_max_ = 0.0;
  double precision_sum_ = 0.0, inverse_precision_sum_ = 0.0;  // over the post-burn-in samples
  std::unique_ptr<hympi::Allreduce> timing_max_;              // seconds: max over ranks
  SideData sides_[2];
  // The predicted entries of the rank's rows: its test entries (the first scored_,
  // the ones the RMSE is of), then its held-out calibration ratings.
  std::vector<TestEntry> test_;
  std::size_t scored_ = 0;
  Ratings held_out_;
  std::int64_t predicted_total_ = 0;  // test_total_ + held-out ratings
  std::vector<double> prediction_sum_, last_prediction_;
  RunningMoments moments_;  // of the post-burn-in predictions
  std::int64_t test_total_ = 0;
  int iteration_ = 0, averaged_ = 0;
  ItemWorkspace work_;
  std::vector<double> stat_terms_;  // one item's terms of the side's statistics
};

}  // namespace bpmf
