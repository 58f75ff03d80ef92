// The portable log, exp and sin/cos against the C library's, in units in the last
// place, over their whole ranges as the sampler uses them (and beyond).
#include "bpmf/portable_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "bpmf/random.hpp"

namespace {

// Distance in representable doubles (same sign).
std::int64_t ulps(double a, double b) {
  if (a == b) return 0;
  std::int64_t ia = 0, ib = 0;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  if (ia < 0) ia = std::numeric_limits<std::int64_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<std::int64_t>::min() - ib;
  return ia > ib ? ia - ib : ib - ia;
}

TEST(PortableMath, LogWithinTwoUlpsOverTheUnitIntervalAndBeyond) {
  bpmf::Stream s(11, 0, 0, 0);
  std::int64_t worst = 0;
  for (int i = 0; i < 400000; ++i) {
    const double u = s.uniform();
    worst = std::max(worst, ulps(bpmf::portable::log(u), std::log(u)));
    const double big = std::ldexp(u, static_cast<int>(s.bits() % 2000) - 1000);  // 2^-1000 .. 2^1000
    worst = std::max(worst, ulps(bpmf::portable::log(big), std::log(big)));
  }
  EXPECT_LE(worst, 2);
  EXPECT_EQ(bpmf::portable::log(1.0), 0.0);
  EXPECT_EQ(bpmf::portable::log(0.0), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(bpmf::portable::log(-1.0)));
  EXPECT_LE(ulps(bpmf::portable::log(std::numeric_limits<double>::denorm_min()),
                 std::log(std::numeric_limits<double>::denorm_min())), 2);
  EXPECT_LE(ulps(bpmf::portable::log(std::numeric_limits<double>::max()), std::log(std::numeric_limits<double>::max())), 2);
}

TEST(PortableMath, ExpWithinTwoUlps) {
  bpmf::Stream s(12, 0, 0, 0);
  std::int64_t worst = 0;
  for (int i = 0; i < 400000; ++i) {
    const double x = (s.uniform() - 0.5) * 1400.0;  // -700 .. 700
    worst = std::max(worst, ulps(bpmf::portable::exp(x), std::exp(x)));
    const double small = (s.uniform() - 0.5) * 2.0;
    worst = std::max(worst, ulps(bpmf::portable::exp(small), std::exp(small)));
  }
  EXPECT_LE(worst, 2);
  EXPECT_EQ(bpmf::portable::exp(0.0), 1.0);
  EXPECT_EQ(bpmf::portable::exp(-800.0), 0.0);
  EXPECT_EQ(bpmf::portable::exp(800.0), std::numeric_limits<double>::infinity());
}

TEST(PortableMath, SinCosOfTurnsWithinAFewUlpsOfTheLibrary) {
  bpmf::Stream s(13, 0, 0, 0);
  double worst = 0;
  for (int i = 0; i < 400000; ++i) {
    const double t = s.uniform();
    double sn = 0, cs = 0;
    bpmf::portable::sincos_turns(t, sn, cs);
    // Absolute error against the library's sin(2 pi t): the library's own argument
    // 2 pi t carries a rounding of ~1e-16, so ulps near the zeros mean nothing.
    worst = std::max({worst, std::fabs(sn - std::sin(2.0 * M_PI * t)), std::fabs(cs - std::cos(2.0 * M_PI * t))});
    ASSERT_LE(sn * sn + cs * cs, 1.0 + 4e-16);
  }
  EXPECT_LE(worst, 1e-15);
  double sn = 0, cs = 0;
  for (int q = 0; q < 8; ++q) {  // the octant boundaries (the library's pi is rounded: 1.2e-16 at pi)
    bpmf::portable::sincos_turns(q / 8.0, sn, cs);
    EXPECT_NEAR(sn, std::sin(q * M_PI / 4.0), 2.5e-16) << q;
    EXPECT_NEAR(cs, std::cos(q * M_PI / 4.0), 2.5e-16) << q;
  }
  bpmf::portable::sincos_turns(0.25, sn, cs);
  EXPECT_EQ(sn, 1.0);
  EXPECT_EQ(cs, 0.0);
  bpmf::portable::sincos_turns(-0.75, sn, cs);  // a turn back: the same angle
  EXPECT_EQ(sn, 1.0);
  // Negative t: sin is odd, cos even, to the bit (t - floor(t) would round these).
  for (const double t : {-0x1.44b3080bf1596p-59, -0x1.ffd028b5310bep-3, -0.3, -2.7}) {
    double s_neg = 0, c_neg = 0, s_pos = 0, c_pos = 0;
    bpmf::portable::sincos_turns(t, s_neg, c_neg);
    bpmf::portable::sincos_turns(-t, s_pos, c_pos);
    EXPECT_EQ(s_neg, -s_pos) << t;
    EXPECT_EQ(c_neg, c_pos) << t;
  }
}

}  // namespace
