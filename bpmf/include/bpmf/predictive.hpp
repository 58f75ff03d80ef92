// Predictive uncertainty of the test entries: running moments of each entry's
// prediction over the post-burn-in samples (Welford, one entry at a time, so the
// bits depend only on the sample sequence - never on the rank count or policy),
// the predictive standard deviation with or without the observation noise, and the
// coverage of the central 68% and 95% predictive intervals.
#pragma once
#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <vector>

#include "bpmf/bits.hpp"  // before Eigen: refuses flags that change the bits
#include "bpmf/ratings.hpp"
#include "hympi/enums.hpp"

namespace bpmf {

// One sample's prediction, mean + u.v: the sampler and the saved-sample predictor
// compute it alike, so their results agree bit for bit.
inline double predict_one(double mean, const double* u, const double* v, int K) {
  return mean + Eigen::Map<const Eigen::VectorXd>(u, K).dot(Eigen::Map<const Eigen::VectorXd>(v, K));
}

// What the standard deviation describes. with_noise (the default): a new
// observation, Var = Var_samples(u.v) + E_samples[1/alpha], the spread the intervals'
// coverage is calibrated against. latent: the posterior spread of u.v alone.
enum class PredictiveStd { with_noise, latent };
const char* to_string(PredictiveStd kind);  // its name in the table below

}  // namespace bpmf

// The names --predictive-std takes and the CSV and summary print: one table.
namespace hympi {
template <>
struct EnumTable<bpmf::PredictiveStd> {
  static constexpr const char* what = "predictive std";
  static constexpr Spelling<bpmf::PredictiveStd> names[] = {{"noise", bpmf::PredictiveStd::with_noise},
                                                            {"latent", bpmf::PredictiveStd::latent}};
  static constexpr std::array<Spelling<bpmf::PredictiveStd>, 0> aliases{};
};
}  // namespace hympi

namespace bpmf {

// Running mean and sum of squared deviations (M2) of one value per entry.
class RunningMoments {
 public:
  explicit RunningMoments(std::size_t entries = 0) : mean_(entries, 0.0), m2_(entries, 0.0) {}
  std::size_t size() const { return mean_.size(); }
  // Adds the n-th value (n >= 1, the same n for every entry) of entry k.
  void add(std::size_t k, double x, int n) {
    const double delta = x - mean_[k];
    mean_[k] += delta / n;
    m2_[k] += delta * (x - mean_[k]);
  }
  double mean(std::size_t k) const { return mean_[k]; }
  double m2(std::size_t k) const { return m2_[k]; }
  void set(std::size_t k, double mean, double m2) {
    mean_[k] = mean;
    m2_[k] = m2;
  }

 private:
  std::vector<double> mean_, m2_;
};

// The predictive standard deviation from the M2 of n samples (the variance of the
// sampled predictions is M2 / n: the posterior is the mixture of the n samples) and
// the noise variance of that mixture: 1 / alpha for a fixed precision, the mean of
// 1 / alpha_s over the samples for a sampled one (mixture_noise_variance). NaN when n == 0.
double predictive_std(double m2, int n, double noise_variance, PredictiveStd kind);
// The mean of 1 / alpha_s over n samples from their sum (accumulated in sample order).
inline double mixture_noise_variance(double inverse_precision_sum, int n) {
  return inverse_precision_sum / n;
}

// z of the central 68% and 95% intervals of a normal distribution.
inline constexpr double kZ68 = 0.99445788320975304;
inline constexpr double kZ95 = 1.95996398454005423;

struct Coverage {
  std::size_t entries = 0, within68 = 0, within95 = 0;
  double fraction68() const { return entries ? static_cast<double>(within68) / entries : 0.0; }
  double fraction95() const { return entries ? static_cast<double>(within95) / entries : 0.0; }
};

// Test entries whose value lies within mean +- z * std (entries with a NaN std count as
// outside); z is the Gaussian's unless given (calibrated multipliers: calibration.hpp).
Coverage interval_coverage(const Ratings& test, const std::vector<double>& mean, const std::vector<double>& std,
                           double z68 = kZ68, double z95 = kZ95);

}  // namespace bpmf
