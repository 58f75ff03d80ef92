// The synthetic generator: deterministic in its seed, the requested shape, density
// and split, and values with the designed spread (unit-variance signal + noise).
#include "bpmf/synthetic.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "hympi/error.hpp"

namespace {

TEST(Synthetic, ShapeDensitySplitAndSpread) {
  bpmf::SyntheticSpec s;
  s.rows = 300;
  s.cols = 200;
  s.rank = 3;
  s.density = 0.1;
  s.noise = 0.5;
  s.test_fraction = 0.25;
  s.offset = 2.0;
  const auto d = bpmf::generate_synthetic(s);
  const double observed = static_cast<double>(d.train.entries.size() + d.test.entries.size());
  EXPECT_NEAR(observed / (300.0 * 200.0), 0.1, 0.005);
  EXPECT_NEAR(d.test.entries.size() / observed, 0.25, 0.02);
  double sum = 0, sq = 0;
  for (const auto& e : d.train.entries) {
    ASSERT_GE(e.row, 0);
    ASSERT_LT(e.row, 300);
    ASSERT_LT(e.col, 200);
    sum += e.value;
    sq += e.value * e.value;
  }
  const double n = static_cast<double>(d.train.entries.size());
  const double mean = sum / n, var = sq / n - mean * mean;
  EXPECT_NEAR(mean, 2.0, 0.1);
  EXPECT_NEAR(var, 1.0 + 0.25, 0.25);  // signal variance 1 (random factors: loose), noise 0.25
}

TEST(Synthetic, SameSeedSameData) {
  bpmf::SyntheticSpec s;
  s.rows = 50;
  s.cols = 30;
  const auto a = bpmf::generate_synthetic(s), b = bpmf::generate_synthetic(s);
  ASSERT_EQ(a.train.entries.size(), b.train.entries.size());
  for (std::size_t k = 0; k < a.train.entries.size(); ++k)
    EXPECT_EQ(a.train.entries[k].value, b.train.entries[k].value);
  s.seed = 2;
  const auto c = bpmf::generate_synthetic(s);
  EXPECT_NE(a.train.entries.size() == c.train.entries.size() && a.train.entries[0].value == c.train.entries[0].value,
            true);
}

TEST(Synthetic, BadSpecsAreRejected) {
  bpmf::SyntheticSpec s;
  s.rows = 0;
  EXPECT_THROW(bpmf::generate_synthetic(s), hympi::Error);
  s = {};
  s.density = 0;
  EXPECT_THROW(bpmf::generate_synthetic(s), hympi::Error);
  s = {};
  s.test_fraction = 1.0;
  EXPECT_THROW(bpmf::generate_synthetic(s), hympi::Error);
  s = {};
  s.rank = 0;
  EXPECT_THROW(bpmf::generate_synthetic(s), hympi::Error);
}

}  // namespace
