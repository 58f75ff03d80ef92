#include "bpmf/predictive.hpp"

#include <cmath>
#include <limits>

namespace bpmf {

const char* to_string(PredictiveStd kind) {
  return hympi::enum_name(kind);
}

double predictive_std(double m2, int n, double noise_variance, PredictiveStd kind) {
  if (n <= 0) return std::numeric_limits<double>::quiet_NaN();
  const double latent = m2 / n;
  return std::sqrt(kind == PredictiveStd::with_noise ? latent + noise_variance : latent);
}

Coverage interval_coverage(const Ratings& test, const std::vector<double>& mean, const std::vector<double>& std,
                           double z68, double z95) {
  Coverage c;
  c.entries = test.entries.size();
  for (std::size_t k = 0; k < c.entries; ++k) {
    const double d = std::fabs(test.entries[k].value - mean[k]);
    c.within68 += d <= z68 * std[k];
    c.within95 += d <= z95 * std[k];
  }
  return c;
}

}  // namespace bpmf
