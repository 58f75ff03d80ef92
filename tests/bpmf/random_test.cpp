// Counter-based streams: keyed, reproducible, and with the right moments.
#include "bpmf/random.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

TEST(Stream, SameKeySameNumbersDifferentKeyDifferentNumbers) {
  bpmf::Stream a(1, 2, 0, 3), b(1, 2, 0, 3), c(1, 2, 0, 4), d(1, 2, 1, 3), e(2, 2, 0, 3);
  for (int i = 0; i < 10; ++i) {
    const auto x = a.bits();
    EXPECT_EQ(x, b.bits());
    EXPECT_NE(x, c.bits());
    EXPECT_NE(x, d.bits());
    EXPECT_NE(x, e.bits());
  }
}

TEST(Stream, UniformIsInsideTheOpenUnitInterval) {
  bpmf::Stream s(5, 0, 0, 0);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.005);
}

TEST(Stream, NormalMoments) {
  bpmf::Stream s(6, 0, 0, 0);
  const int n = 400000;
  double m1 = 0, m2 = 0, m4 = 0;
  for (int i = 0; i < n; ++i) {
    const double z = s.normal();
    m1 += z;
    m2 += z * z;
    m4 += z * z * z * z;
  }
  EXPECT_NEAR(m1 / n, 0.0, 0.01);
  EXPECT_NEAR(m2 / n, 1.0, 0.01);
  EXPECT_NEAR(m4 / n, 3.0, 0.05);
}

class GammaMoments : public ::testing::TestWithParam<double> {};

TEST_P(GammaMoments, MeanAndVarianceEqualTheShape) {
  const double shape = GetParam();
  bpmf::Stream s(7, 1, 0, static_cast<std::uint64_t>(shape * 100));
  const int n = 200000;
  double m1 = 0, m2 = 0;
  for (int i = 0; i < n; ++i) {
    const double g = s.gamma(shape);
    ASSERT_GT(g, 0.0);
    m1 += g;
    m2 += g * g;
  }
  const double mean = m1 / n, var = m2 / n - mean * mean;
  // Standard error of the mean is sqrt(shape / n); allow 5 of them (and 3% of the variance).
  EXPECT_NEAR(mean, shape, 5 * std::sqrt(shape / n));
  EXPECT_NEAR(var, shape, 0.03 * shape + 0.01);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GammaMoments, ::testing::Values(0.5, 1.0, 2.5, 16.0, 150.0));

TEST(Stream, ChiSquareMean) {
  bpmf::Stream s(8, 0, 0, 0);
  double sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) sum += s.chi_square(7.0);
  EXPECT_NEAR(sum / n, 7.0, 0.1);
}

}  // namespace
