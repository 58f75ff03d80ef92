#include "bpmf/sampler.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "bpmf/calibration.hpp"
#include "bpmf/exact_sum.hpp"
#include "bpmf/partition.hpp"
#include "hympi/error.hpp"

namespace bpmf {

namespace {
double now() {
  return MPI_Wtime();
}

// Returns K once the configuration is valid (so the workspace is sized only then).
int checked_K(const SamplerConfig& c) {
  if (c.K < 1)
    throw hympi::Error(hympi::ErrorCode::invalid_argument,
                       "the latent dimension K must be >= 1 (got " + std::to_string(c.K) + ")");
  check_noise(c.noise, c.alpha);
  check_calibration_fraction(c.calibrate);
  if (c.burnin < 0) throw hympi::Error(hympi::ErrorCode::invalid_argument, "burn-in must be >= 0");
  if (c.samples < 0) throw hympi::Error(hympi::ErrorCode::invalid_argument, "the number of samples must be >= 0");
  // The iteration counter is an int: a sum past its range would wrap and run nothing.
  const long long iterations = static_cast<long long>(c.burnin) + c.samples;
  if (iterations > std::numeric_limits<int>::max())
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "burn-in + samples = " + std::to_string(iterations) +
                                                               " iterations: more than " +
                                                               std::to_string(std::numeric_limits<int>::max()));
  return c.K;
}
}  // namespace

Sampler::Sampler(const hympi::Topology& topo, const Ratings& train, const Ratings& test, SamplerConfig config)
    : Sampler(topo, training_input(train), test, config) {}

Sampler::Sampler(const hympi::Topology& topo, const TrainingInput& train, const Ratings& test, SamplerConfig config)
    : topo_(topo), config_(config), work_(checked_K(config)) {
  prior_ = NormalWishartPrior::standard(config_.K);
  if (test.rows > train.rows || test.cols > train.cols)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "the test matrix is larger than the training matrix");
  // The chain trains on the ratings the calibration does not hold out (all at 0).
  CalibrationSplit split = split_for_calibration(train, config_.seed, config_.calibrate);
  held_out_ = std::move(split.held_out);
  mean_ = split.train.mean;

  train_ = std::make_unique<TrainingMatrix>(topo, split.train, config_.exchange.policy, config_.exchange.sync);
  build_side(0);
  build_side(1);
  // Statistics through the core's allreduce, with the exchange's policy.
  const auto K = static_cast<std::size_t>(config_.K);
  hyper_stats_ = std::make_unique<ExactSumReduction>(topo, K + K * (K + 1) / 2, config_.exchange);
  test_errors_ = std::make_unique<ExactSumReduction>(topo, 2, config_.exchange);
  timing_max_ = hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_MAX, config_.exchange);
  alpha_ = alpha_init_ = alpha_max_ = config_.alpha;
  if (config_.noise.kind == NoiseKind::adaptive) {
    residual_stats_ = std::make_unique<ExactSumReduction>(topo, 1, config_.exchange);
    residuals_ = ExactSums(1);
    initialise_noise();
  }

  for (std::size_t k = 0; k < test.entries.size(); ++k) {
    const auto& e = test.entries[k];
    if (e.row >= sides_[0].begin && e.row < sides_[0].end)
      test_.push_back({e.row, e.col, e.value, static_cast<std::int64_t>(k)});
  }
  test_total_ = static_cast<std::int64_t>(test.entries.size());
  scored_ = test_.size();
  // The held-out ratings are predicted like test entries, numbered after them.
  for (std::size_t k = 0; k < held_out_.entries.size(); ++k) {
    const auto& e = held_out_.entries[k];
    if (e.row >= sides_[0].begin && e.row < sides_[0].end)
      test_.push_back({e.row, e.col, e.value, test_total_ + static_cast<std::int64_t>(k)});
  }
  predicted_total_ = test_total_ + static_cast<std::int64_t>(held_out_.entries.size());
  prediction_sum_.assign(test_.size(), 0.0);
  last_prediction_.assign(test_.size(), mean_);
  moments_ = RunningMoments(test_.size());
  initialise();
}

Sampler::~Sampler() = default;

void Sampler::build_side(int side) {
  SideData& s = sides_[side];
  const SideView& ratings = train_->side(side);
  s.items = ratings.items;
  // Balanced by the kernel's cost model: an item's fixed cost is several ratings' worth.
  std::vector<std::int64_t> weights(static_cast<std::size_t>(s.items));
  for (std::int64_t i = 0; i < s.items; ++i) weights[i] = item_cost(ratings.count(i), config_.K);
  const auto bounds = balanced_ranges(weights, topo_.size());
  s.begin = bounds[topo_.rank()];
  s.end = bounds[topo_.rank() + 1];

  std::vector<std::int64_t> items_per_rank(topo_.size());
  for (int r = 0; r < topo_.size(); ++r) items_per_rank[r] = bounds[r + 1] - bounds[r];
  s.exchange = hympi::Allgatherv::create(topo_, items_per_rank, sizeof(double) * config_.K, config_.exchange);
  if (s.exchange->displs()[topo_.rank()] != s.begin)
    throw hympi::Error(hympi::ErrorCode::internal, "bpmf: the allgatherv result is not in item order");
}

void Sampler::initialise() {
  // Small Gaussian start, scaled so that initial predictions have about unit variance.
  const double scale = 1.0 / std::sqrt(std::sqrt(static_cast<double>(config_.K)));
  for (int side = 0; side < 2; ++side) {
    SideData& s = sides_[side];
    double* slot = s.exchange->slot_as<double>();
    for (std::int64_t item = s.begin; item < s.end; ++item) {
      Stream st(config_.seed, kInitIteration, static_cast<std::uint64_t>(side), static_cast<std::uint64_t>(item));
      for (int k = 0; k < config_.K; ++k) slot[(item - s.begin) * config_.K + k] = scale * st.normal();
    }
    s.exchange->run();
  }
}

void Sampler::initialise_noise() {
  // The training data's total variance, summed exactly over the rank's rows (values
  // are centred): the same bits on every partition.
  const SideView& rows = train_->side(0);
  ExactSums sums(1);
  for (std::int64_t r = rows.offsets[sides_[0].begin]; r < rows.offsets[sides_[0].end]; ++r)
    sums.add(0, rows.value[r] * rows.value[r]);
  residual_stats_->run(sums);
  const double n = static_cast<double>(train_->ratings());
  train_variance_ = sums.value(0) / n;
  if (!(train_variance_ > 0.0) || !std::isfinite(train_variance_))
    throw hympi::Error(
        hympi::ErrorCode::invalid_argument,
        "adaptive noise needs training values that vary (total variance " + std::to_string(train_variance_) + ")");
  // SMURFF's signal-to-noise ratio: Var(noise) = Var(total) / (SN + 1), so the
  // precision is (SN + 1) / var (before 2026-11-29 this was SN / var: a cap 10% low).
  alpha_ = alpha_init_ = precision_of_sn(config_.noise.sn_init, train_variance_);
  alpha_max_ = precision_of_sn(config_.noise.sn_max, train_variance_);
}

void Sampler::add_squared_residuals(const double* other, const std::int32_t* index, const double* value, std::int64_t n,
                                    const double* v) {
  const int K = config_.K;
  for (std::int64_t m = 0; m < n; ++m) {
    // value is centred: the residual of mean + u.v. The dot as predict_one's.
    const double r = value[m] - predict_one(0.0, other + static_cast<std::int64_t>(index[m]) * K, v, K);
    residuals_.add(0, r * r);
  }
}

double Sampler::draw_noise(double& seconds_sync) {
  const double t0 = now();
  residual_stats_->run(residuals_);
  seconds_sync += now() - t0;
  Stream stream(config_.seed, static_cast<std::uint64_t>(iteration_), kNoiseSide, kHyperItem);
  const double sse = residuals_.value(0);
  alpha_ = draw_noise_precision(sse, train_->ratings(), train_variance_, alpha_max_, stream);
  residuals_.clear();
  return (static_cast<double>(train_->ratings()) + 1.0) / (train_variance_ + sse);
}

double Sampler::precision_mean() const {
  if (averaged_ <= 0) return std::numeric_limits<double>::quiet_NaN();
  return config_.noise.kind == NoiseKind::fixed ? config_.alpha : precision_sum_ / averaged_;
}

double Sampler::sample_side(int side, double& seconds_sync) {
  const int K = config_.K;
  SideData& s = sides_[side];
  const double t0 = now();

  // Exact global statistics of this side's current vectors.
  const double* self = s.exchange->result_as<double>();
  const std::size_t tri = static_cast<std::size_t>(K) * (K + 1) / 2;
  ExactSums sums(K + tri);
  std::vector<double>& terms = stat_terms_;  // u, then the lower triangle of u u^T by rows
  terms.resize(K + tri);
  for (std::int64_t item = s.begin; item < s.end; ++item) {
    const double* u = self + item * K;
    std::copy(u, u + K, terms.data());
    std::size_t t = K;
    for (int a = 0; a < K; ++a)
      for (int b = 0; b <= a; ++b) terms[t++] = u[a] * u[b];
    sums.add_batched(0, terms.data(), terms.size());
    if ((item - s.begin + 1) % ExactSums::kBatch == 0) sums.fold();
  }
  const double t1 = now();
  hyper_stats_->run(sums);
  const double t2 = now();

  LatentStats stats;
  stats.count = static_cast<double>(s.items);
  stats.sum.resize(K);
  stats.outer_sum.resize(K, K);
  std::size_t t = K;
  for (int a = 0; a < K; ++a) {
    stats.sum(a) = sums.value(a);
    for (int b = 0; b <= a; ++b) stats.outer_sum(a, b) = stats.outer_sum(b, a) = sums.value(t++);
  }
  Stream hyper_stream(config_.seed, static_cast<std::uint64_t>(iteration_), static_cast<std::uint64_t>(side),
                      kHyperItem);
  s.hyper = sample_normal_wishart(posterior(prior_, stats), hyper_stream);
  const ItemPrior item_prior(s.hyper.Lambda, s.hyper.mu);

  const double* other = sides_[1 - side].exchange->result_as<double>();
  const SideView& ratings = train_->side(side);
  double* slot = s.exchange->slot_as<double>();
  // Adaptive noise: the residuals of this iteration's U and V, column by column while
  // the column's ratings are in cache (U is complete: rows come first).
  const bool residuals = side == 1 && config_.noise.kind == NoiseKind::adaptive;
  for (std::int64_t item = s.begin; item < s.end; ++item) {
    const auto first = ratings.offsets[item];
    Stream st(config_.seed, static_cast<std::uint64_t>(iteration_), static_cast<std::uint64_t>(side),
              static_cast<std::uint64_t>(item));
    double* out = slot + (item - s.begin) * K;
    sample_item(item_prior, alpha_, other, ratings.index + first, ratings.value + first, ratings.count(item), st, work_,
                out);
    if (residuals) add_squared_residuals(other, ratings.index + first, ratings.value + first, ratings.count(item), out);
  }
  const double t3 = now();
  seconds_sync += t2 - t1;
  return (t1 - t0) + (t3 - t2);
}

double Sampler::prediction(const TestEntry& e, const double* U, const double* V) const {
  const int K = config_.K;
  return predict_one(mean_, U + static_cast<std::int64_t>(e.row) * K, V + static_cast<std::int64_t>(e.col) * K, K);
}

void Sampler::predict(IterationReport& report, double& seconds_sync) {
  const double* U = sides_[0].exchange->result_as<double>();
  const double* V = sides_[1].exchange->result_as<double>();
  for (std::size_t k = 0; k < test_.size(); ++k) {
    const double p = prediction(test_[k], U, V);
    last_prediction_[k] = p;
    if (!report.burnin) {
      prediction_sum_[k] += p;
      moments_.add(k, p, averaged_);
    }
  }
  measure_rmse(report, seconds_sync);
}

void Sampler::measure_rmse(IterationReport& report, double& seconds_sync) {
  ExactSums sums(2);
  for (std::size_t k = 0; k < scored_; ++k) {  // the test entries only
    const double y = test_[k].value, p = last_prediction_[k];
    sums.add(0, (p - y) * (p - y));
    if (!report.burnin) {
      const double a = prediction_sum_[k] / averaged_;
      sums.add(1, (a - y) * (a - y));
    }
  }
  const double t0 = now();
  test_errors_->run(sums);
  seconds_sync += now() - t0;
  const double n = static_cast<double>(test_total_);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  report.rmse_sample = test_total_ ? std::sqrt(sums.value(0) / n) : nan;
  report.rmse_average = (test_total_ && !report.burnin) ? std::sqrt(sums.value(1) / n) : nan;
}

IterationReport Sampler::current_report() {
  IterationReport report;
  report.iteration = iteration_;
  report.burnin = iteration_ <= config_.burnin;
  report.samples_averaged = averaged_;
  report.alpha = alpha_;
  double sync = 0.0;
  measure_rmse(report, sync);
  return report;
}

IterationReport Sampler::step() {
  IterationReport report;
  report.iteration = ++iteration_;
  report.burnin = iteration_ <= config_.burnin;
  if (!report.burnin) ++averaged_;
  report.samples_averaged = averaged_;

  const double start = now();
  double sampling = 0.0, exchange = 0.0, sync = 0.0;
  for (int side = 0; side < 2; ++side) {
    sampling += sample_side(side, sync);
    if (config_.barrier_before_exchange) {
      const double b0 = now();
      HYMPI_CHECK_MPI(MPI_Barrier(topo_.comm()));
      sync += now() - b0;
    }
    const double t0 = now();
    sides_[side].exchange->run();
    exchange += now() - t0;
  }
  if (config_.noise.kind == NoiseKind::adaptive) report.alpha_conditional = draw_noise(sync);
  if (!report.burnin) {
    precision_sum_ += alpha_;
    inverse_precision_sum_ += 1.0 / alpha_;
  }
  report.alpha = alpha_;
  const double t0 = now(), sync_before = sync;
  predict(report, sync);
  sampling += (now() - t0) - (sync - sync_before);  // the prediction's own reduction counts as sync
  report.seconds_wall = now() - start;

  double* local = timing_max_->slot_as<double>();
  local[0] = report.seconds_wall;
  local[1] = sampling;
  local[2] = exchange;
  local[3] = sync;
  timing_max_->run();
  const double* global = timing_max_->result_as<double>();
  report.seconds_sampling = global[1];
  report.seconds_exchange = global[2];
  report.seconds_sync = global[3];
  report.items_per_second = static_cast<double>(sides_[0].items + sides_[1].items) / global[0];
  return report;
}

std::size_t Sampler::latent_bytes_per_node() const {
  return sides_[0].exchange->bytes_per_node() + sides_[1].exchange->bytes_per_node();
}

const double* Sampler::rows_latent() const {
  return sides_[0].exchange->result_as<double>();
}
const double* Sampler::cols_latent() const {
  return sides_[1].exchange->result_as<double>();
}

std::vector<std::vector<double>> Sampler::gather_by_position(const std::vector<const std::vector<double>*>& values,
                                                             int root) const {
  const MPI_Comm comm = topo_.comm();
  const int mine = static_cast<int>(test_.size());
  std::vector<std::int64_t> position(test_.size());
  for (std::size_t k = 0; k < test_.size(); ++k) position[k] = test_[k].position;
  const bool is_root = topo_.rank() == root;
  std::vector<int> counts(is_root ? topo_.size() : 0), displs(counts.size(), 0);
  HYMPI_CHECK_MPI(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm));
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displs[r] = total;
    total += counts[r];
  }
  std::vector<std::int64_t> all_position(total);
  HYMPI_CHECK_MPI(MPI_Gatherv(position.data(), mine, MPI_INT64_T, all_position.data(), counts.data(), displs.data(),
                              MPI_INT64_T, root, comm));
  std::vector<std::vector<double>> out(values.size());
  std::vector<double> all_value(total);
  for (std::size_t v = 0; v < values.size(); ++v) {
    HYMPI_CHECK_MPI(MPI_Gatherv(values[v]->data(), mine, MPI_DOUBLE, all_value.data(), counts.data(), displs.data(),
                                MPI_DOUBLE, root, comm));
    if (!is_root) continue;
    out[v].assign(static_cast<std::size_t>(predicted_total_), 0.0);
    for (int k = 0; k < total; ++k) out[v][all_position[k]] = all_value[k];
  }
  return out;
}

std::vector<double> Sampler::gather_predictions(int root) const {
  return gather_predictive(PredictiveStd::with_noise, root).mean;
}

Predictions Sampler::gather_predictive(PredictiveStd kind, int root) const {
  std::vector<double> mean(test_.size()), std(test_.size());
  // Fixed noise: 1 / alpha, the bits of the runs before adaptive noise.
  const double noise_variance = config_.noise.kind == NoiseKind::fixed
                                    ? 1.0 / config_.alpha
                                    : mixture_noise_variance(inverse_precision_sum_, averaged_);
  for (std::size_t k = 0; k < test_.size(); ++k) {
    mean[k] = averaged_ > 0 ? prediction_sum_[k] / averaged_ : last_prediction_[k];
    std[k] = predictive_std(moments_.m2(k), averaged_, noise_variance, kind);
  }
  auto all = gather_by_position({&mean, &std}, root);
  Predictions p;
  if (topo_.rank() != root) return p;
  const auto split = [this](std::vector<double>& whole, std::vector<double>& test, std::vector<double>& held_out) {
    held_out.assign(whole.begin() + test_total_, whole.end());
    whole.resize(static_cast<std::size_t>(test_total_));
    test = std::move(whole);
  };
  split(all[0], p.mean, p.calibration_mean);
  split(all[1], p.std, p.calibration_std);
  return p;
}

ChainState Sampler::gather_state(int root) const {
  std::vector<double> moment_mean(test_.size()), moment_m2(test_.size());
  for (std::size_t k = 0; k < test_.size(); ++k) {
    moment_mean[k] = moments_.mean(k);
    moment_m2[k] = moments_.m2(k);
  }
  auto all = gather_by_position({&prediction_sum_, &moment_mean, &moment_m2}, root);
  ChainState s;
  if (topo_.rank() != root) return s;
  s.iteration = iteration_;
  s.averaged = averaged_;
  const double* U = rows_latent();
  const double* V = cols_latent();
  s.U.assign(U, U + sides_[0].items * config_.K);
  s.V.assign(V, V + sides_[1].items * config_.K);
  s.prediction_sum = std::move(all[0]);
  s.moment_mean = std::move(all[1]);
  s.moment_m2 = std::move(all[2]);
  s.alpha = alpha_;
  s.precision_sum = precision_sum_;
  s.inverse_precision_sum = inverse_precision_sum_;
  return s;
}

void Sampler::set_latent(int side, const std::vector<double>& whole) {
  SideData& s = sides_[side];
  std::copy(whole.begin() + s.begin * config_.K, whole.begin() + s.end * config_.K, s.exchange->slot_as<double>());
  s.exchange->run();
}

void Sampler::restore(const ChainState& state) {
  const auto K = static_cast<std::size_t>(config_.K);
  const auto n = static_cast<std::size_t>(predicted_total_);
  std::string problem;
  if (state.U.size() != static_cast<std::size_t>(sides_[0].items) * K ||
      state.V.size() != static_cast<std::size_t>(sides_[1].items) * K)
    problem = "its latent matrices do not fit " + std::to_string(sides_[0].items) + " rows, " +
              std::to_string(sides_[1].items) + " columns and K = " + std::to_string(K);
  else if (state.prediction_sum.size() != n || state.moment_mean.size() != n || state.moment_m2.size() != n)
    problem = "it holds " + std::to_string(state.prediction_sum.size()) +
              " predicted entries (test and calibration holdout), not " + std::to_string(n);
  else if (state.iteration < 0 || state.iteration > total_iterations() ||
           state.averaged != std::max(0, state.iteration - config_.burnin))
    problem = "its iteration " + std::to_string(state.iteration) + " does not fit burn-in " +
              std::to_string(config_.burnin) + " + " + std::to_string(config_.samples) + " samples";
  else if (config_.noise.kind == NoiseKind::adaptive &&
           !(state.alpha > 0.0 && state.alpha <= alpha_max_ && std::isfinite(state.precision_sum) &&
             std::isfinite(state.inverse_precision_sum)))
    problem = "its noise precision " + std::to_string(state.alpha) + " is not in (0, " + std::to_string(alpha_max_) +
              "] or its sums are not finite";
  if (!problem.empty())
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "cannot resume from this chain state: " + problem);
  iteration_ = state.iteration;
  averaged_ = state.averaged;
  // Fixed noise: alpha itself (the checkpoint's identity matched it); its sums are not used.
  if (config_.noise.kind == NoiseKind::adaptive) {
    alpha_ = state.alpha;
    precision_sum_ = state.precision_sum;
    inverse_precision_sum_ = state.inverse_precision_sum;
  }
  set_latent(0, state.U);
  set_latent(1, state.V);
  const double* U = rows_latent();
  const double* V = cols_latent();
  for (std::size_t k = 0; k < test_.size(); ++k) {
    const auto at = static_cast<std::size_t>(test_[k].position);
    prediction_sum_[k] = state.prediction_sum[at];
    moments_.set(k, state.moment_mean[at], state.moment_m2[at]);
    last_prediction_[k] = prediction(test_[k], U, V);
  }
}

}  // namespace bpmf
