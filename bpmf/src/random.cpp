#include "bpmf/random.hpp"

#include <cmath>

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
  const double radius = std::sqrt(-2.0 * std::log(uniform()));
  const double angle = 2.0 * M_PI * uniform();
  spare_normal_ = radius * std::sin(angle);
  has_spare_normal_ = true;
  return radius * std::cos(angle);
}

double Stream::gamma(double shape) {
  if (shape < 1.0) {
    // Gamma(a) = Gamma(a + 1) U^(1/a) for a < 1.
    const double g = gamma(shape + 1.0);
    return g * std::pow(uniform(), 1.0 / shape);
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
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

double Stream::chi_square(double dof) {
  return 2.0 * gamma(0.5 * dof);
}

}  // namespace bpmf
