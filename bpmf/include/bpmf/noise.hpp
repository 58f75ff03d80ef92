// The observation noise of the model: a fixed precision alpha, or an adaptive one
// (SMURFF's "adaptive Gaussian noise") drawn in every iteration from its Gamma
// conditional given the training residuals. Its prior is weak: worth one
// observation with the training data's total variance var (shape 1/2, rate var/2);
// the chain starts at (SN_INIT + 1) / var and a draw above (SN_MAX + 1) / var is cut
// to it (SN: signal-to-noise ratios as SMURFF defines them, Var(noise) = var / (SN + 1),
// so the options do not depend on the data's scale).
#pragma once
#include <cstdint>
#include <string>

#include "bpmf/random.hpp"

namespace bpmf {

enum class NoiseKind : std::int64_t { fixed = 0, adaptive = 1 };

struct NoiseConfig {
  NoiseKind kind = NoiseKind::fixed;
  double sn_init = 1.0, sn_max = 10.0;  // adaptive only (SMURFF's defaults)
};

// "fixed:ALPHA" (alpha is set), "adaptive" or "adaptive:SN_INIT,SN_MAX". Throws
// hympi::Error(invalid_argument) naming the problem: an unknown kind, a value that is
// not a whole finite number, alpha <= 0, SN_INIT <= 0, SN_INIT > SN_MAX.
NoiseConfig parse_noise(const std::string& spec, double& alpha);
// The same checks on a configuration built in code (the sampler's).
void check_noise(const NoiseConfig& noise, double alpha);
// "fixed:2" or "adaptive:1,10" (%g): what --noise takes back.
std::string noise_text(const NoiseConfig& noise, double alpha);

// Stream "side" of the noise draw (item kHyperItem): disjoint from rows (0), cols (1)
// and the synthetic generator's sides (100-102).
constexpr std::uint64_t kNoiseSide = 2;

// The precision of the noise whose signal-to-noise ratio is sn: (sn + 1) / var.
inline double precision_of_sn(double sn, double var) {
  return (sn + 1.0) / var;
}

// One draw of the adaptive precision: Gamma(1/2 + n/2, rate var/2 + sse/2), at most
// alpha_max. `sse` is the sum of the n training residuals squared. Only + - * / and
// the stream's gamma (portable arithmetic): the same bits on every rank and CPU.
double draw_noise_precision(double sse, std::int64_t n, double var, double alpha_max, Stream& stream);

}  // namespace bpmf
