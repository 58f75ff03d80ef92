#include "bpmf/random.hpp"

#include <cmath>

#include "bpmf/portable_math.hpp"

namespace bpmf {

namespace {
// Distinguishes these streams from any other use of Philox with the same seed.
constexpr std::uint64_t kStreamTag = 0x42504d46'00000001ULL;  // "BPMF", version 1
}  // namespace

Stream::Stream(std::uint64_t seed, std::uint64_t iteration, std::uint64_t side, std::uint64_t item) {
  key_ = {{seed, kStreamTag}};
  // The last counter word numbers the 4-word blocks drawn from this stream.
  counter_ = {{iteration, side, item, 0}};
}

std::uint64_t Stream::bits() {
  if (used_ == 4) {
    block_ = Rng()(counter_, key_);
    ++counter_.v[3];
    used_ = 0;
  }
  return block_.v[used_++];
}

double Stream::uniform() {
  // 53 random bits, offset by half a step: the result is never 0 or 1.
  return (static_cast<double>(bits() >> 11) + 0.5) * 0x1p-53;
}

double Stream::normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  // Box-Muller with the portable log, sin and cos: the same draws on every host.
  const double radius = std::sqrt(-2.0 * portable::log(uniform()));
  double sin = 0.0, cos = 0.0;
  portable::sincos_turns(uniform(), sin, cos);
  spare_normal_ = radius * sin;
  has_spare_normal_ = true;
  return radius * cos;
}

double Stream::gamma(double shape) {
  if (shape < 1.0) {
    // Gamma(a) = Gamma(a + 1) U^(1/a) for a < 1.
    const double g = gamma(shape + 1.0);
    return g * portable::exp(portable::log(uniform()) / shape);  // U^(1/a)
  }
  // Marsaglia & Tsang (2000).
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (portable::log(u) < 0.5 * x * x + d * (1.0 - v + portable::log(v))) return d * v;
  }
}

double Stream::chi_square(double dof) {
  return 2.0 * gamma(0.5 * dof);
}

}  // namespace bpmf
