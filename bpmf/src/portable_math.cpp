#include "bpmf/portable_math.hpp"

#include <cmath>
#include <cstddef>
#include <limits>

// Built with -ffp-contract=off in either HYMPI_BPMF_BITS mode (bpmf/CMakeLists.txt): no
// fused multiply-add, so every line below rounds as written. frexp, ldexp and floor are exact on every host.
namespace bpmf::portable {

namespace {
// ln 2 = kLn2Hi + kLn2Lo; kLn2Hi has 21 trailing zero bits, so k * kLn2Hi is exact for |k| < 2^21.
constexpr double kLn2Hi = 0x1.62e42feep-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;
constexpr double kTwoPi = 0x1.921fb54442d18p+2;

// c[0] z^(n-1) + ... + c[n-1], by Horner's rule (in this order: the bits depend on it).
template <std::size_t n>
double horner(double z, const double (&c)[n]) {
  double p = c[0];
  for (std::size_t i = 1; i < n; ++i) p = p * z + c[i];
  return p;
}

// The Taylor coefficients past the first terms, highest first: sin x = x + x z S(z),
// cos x = 1 - z/2 + z^2 C(z), z = x^2; on [0, pi/4] the first omitted terms are below 1e-19.
constexpr double kSin[] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0,
                           -1.0 / 39916800.0,       1.0 / 362880.0,         -1.0 / 5040.0,
                           1.0 / 120.0,             -1.0 / 6.0};  // 1/17!, -1/15!, ..., -1/3!
constexpr double kCos[] = {-1.0 / 6402373705728000.0, 1.0 / 20922789888000.0, -1.0 / 87178291200.0,
                           1.0 / 479001600.0,         -1.0 / 3628800.0,       1.0 / 40320.0,
                           -1.0 / 720.0,              1.0 / 24.0};  // -1/18!, 1/16!, ..., 1/4!

double sin_taylor(double x) {
  const double z = x * x;
  return x + x * (z * horner(z, kSin));
}

double cos_taylor(double x) {
  const double z = x * x;
  return (1.0 - 0.5 * z) + z * (z * horner(z, kCos));
}
}  // namespace

double log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (x == std::numeric_limits<double>::infinity()) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [1/2, 1)
  if (m < kSqrtHalf) m *= 2.0, --e;
  // log m = log(1 + f) = 2 atanh(s), s = f / (2 + f), |s| <= 0.1716: the series to s^21,
  // written as f - (f^2/2 - s (f^2/2 + R)) (2s = f - s f) so that f, exact, leads.
  const double f = m - 1.0;  // exact (Sterbenz)
  const double s = f / (2.0 + f);
  const double z = s * s;
  double p = 1.0 / 21.0;
  for (int k = 19; k >= 3; k -= 2) p = p * z + 1.0 / k;  // 1/3 + z/5 + ... + z^9/21
  const double R = 2.0 * z * p;
  const double hf = 0.5 * f * f;
  const double log_m = f - (hf - s * (hf + R));
  const double k = e;
  return k * kLn2Hi + (log_m + k * kLn2Lo);
}

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.8) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = k ln 2 + r, |r| <= ln2 / 2 (+ rounding): e^r by its Taylor series to r^14.
  const double k = std::floor(x * (1.0 / kLn2Hi) + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0;
  for (int n = 14; n >= 1; --n) p = 1.0 + r * p / n;  // 1 + r (1 + r/2 (1 + r/3 (...)))
  return std::ldexp(p, static_cast<int>(k));
}

void sincos_turns(double t, double& sin, double& cos) {
  // sin is odd, cos even: reduce |t|, whose fraction is exact (t - floor(t) is not for t < 0).
  const bool negative = t < 0.0;
  t = std::fabs(t);
  t -= std::floor(t);  // [0, 1): exact
  const double octant = std::floor(t * 8.0);  // exact: a power-of-two scaling
  const int q = static_cast<int>(octant) & 7;
  const double f = t - octant * 0.125;  // [0, 1/8)
  // Odd octants measure the angle back from the octant's end.
  const double x = kTwoPi * ((q & 1) ? 0.125 - f : f);
  const double s = sin_taylor(x), c = cos_taylor(x);
  switch (q) {
    case 0: sin = s, cos = c; break;
    case 1: sin = c, cos = s; break;
    case 2: sin = c, cos = -s; break;
    case 3: sin = s, cos = -c; break;
    case 4: sin = -s, cos = -c; break;
    case 5: sin = -c, cos = -s; break;
    case 6: sin = -c, cos = s; break;
    default: sin = -s, cos = c; break;
  }
  if (negative) sin = -sin;
}

}  // namespace bpmf::portable
