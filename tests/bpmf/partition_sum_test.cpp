// Balanced contiguous partitions, and sums that do not depend on the order of addition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "bpmf/exact_sum.hpp"
#include "bpmf/partition.hpp"
#include "hympi/error.hpp"

namespace {

TEST(Partition, CoversEverythingInOrder) {
  const std::vector<std::int64_t> w = {5, 1, 1, 1, 9, 2, 2, 3, 0, 4};
  for (int parts = 1; parts <= 12; ++parts) {
    const auto b = bpmf::balanced_ranges(w, parts);
    ASSERT_EQ(b.size(), static_cast<std::size_t>(parts + 1));
    EXPECT_EQ(b.front(), 0);
    EXPECT_EQ(b.back(), static_cast<std::int64_t>(w.size()));
    EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
  }
}

TEST(Partition, BalancesByWeight) {
  std::mt19937 gen(3);
  std::vector<std::int64_t> w(10000);
  for (auto& x : w) x = 1 + gen() % 50;
  const auto total = std::accumulate(w.begin(), w.end(), std::int64_t{0});
  const auto b = bpmf::balanced_ranges(w, 7);
  for (int r = 0; r < 7; ++r) {
    const auto part = std::accumulate(w.begin() + b[r], w.begin() + b[r + 1], std::int64_t{0});
    EXPECT_NEAR(static_cast<double>(part), total / 7.0, 50.0) << "part " << r;
  }
}

TEST(Partition, OneHeavyItem) {
  const auto b = bpmf::balanced_ranges({1, 100, 1}, 2);
  EXPECT_EQ(b, (std::vector<std::int64_t>{0, 1, 3}));
  EXPECT_THROW(bpmf::balanced_ranges({1}, 0), hympi::Error);
}

TEST(ExactSums, OrderDoesNotMatter) {
  std::mt19937_64 gen(5);
  std::normal_distribution<double> dist(0.0, 100.0);
  std::vector<double> terms(20000);
  for (auto& t : terms) t = dist(gen) * dist(gen);
  bpmf::ExactSums forward(1), backward(1), split(1);
  for (double t : terms) forward.add(0, t);
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) backward.add(0, *it);
  std::shuffle(terms.begin(), terms.end(), gen);
  for (double t : terms) split.add(0, t);
  EXPECT_EQ(forward.value(0), backward.value(0));
  EXPECT_EQ(forward.value(0), split.value(0));
  long double exact = 0;
  for (double t : terms) exact += t;
  EXPECT_NEAR(forward.value(0), static_cast<double>(exact), 1e-9 * std::abs(static_cast<double>(exact)) + 1e-9);
}

TEST(ExactSums, NegativeValuesAndFractions) {
  bpmf::ExactSums s(2);
  s.add(0, -1.25);
  s.add(0, 0.5);
  s.add(1, 1e-10);
  s.add(1, -3e-10);
  EXPECT_EQ(s.value(0), -0.75);
  EXPECT_NEAR(s.value(1), -2e-10, 1e-16);
  EXPECT_THROW(s.add(0, std::nan("")), hympi::Error);
  EXPECT_THROW(s.add(0, 1e300), hympi::Error);
}

// The limbs of several partial sums, added as int64 words (what MPI_SUM does),
// carry back into exactly the sum of the partials - also when limbs overflow
// their 32 bits and for negative totals.
// The batched path (the sampler's statistics) gives the same bits as add(), for
// small and large terms of both signs, and still refuses non-finite ones.
TEST(ExactSums, BatchedEqualsAdd) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> small(-3.0, 3.0), exponent(-40.0, 36.0);
  bpmf::ExactSums plain(2), batched(2);
  for (int i = 0; i < 5 * bpmf::ExactSums::kBatch; ++i) {
    // Pairs of small terms (the vector loop) and pairs holding a large one (the fallback).
    double terms[2];
    for (int k = 0; k < 2; ++k) {
      terms[k] = (2 * i + k) % 7 == 0 ? std::ldexp(small(rng), static_cast<int>(exponent(rng))) : small(rng);
      plain.add(k, terms[k]);
    }
    batched.add_batched(0, terms, 2);
    if ((i + 1) % bpmf::ExactSums::kBatch == 0) batched.fold();
  }
  batched.fold();
  // All 128 bits (value() would round them to a double that large terms dominate).
  std::vector<std::int64_t> plain_limbs(2 * bpmf::ExactSums::kLimbs), batched_limbs(plain_limbs.size());
  plain.to_limbs(plain_limbs.data());
  batched.to_limbs(batched_limbs.data());
  EXPECT_EQ(plain_limbs, batched_limbs);
  const double bad[2] = {1.0, std::nan("")}, huge[1] = {HUGE_VAL};
  EXPECT_THROW(batched.add_batched(0, bad, 2), hympi::Error);
  EXPECT_THROW(batched.add_batched(1, huge, 1), hympi::Error);
}

TEST(ExactSums, LimbsAddLikeTheSums) {
  std::mt19937_64 gen(9);
  std::normal_distribution<double> dist(0.0, 1e5);
  constexpr int kParts = 1000;
  bpmf::ExactSums whole(3), part(3);
  std::vector<std::int64_t> summed(3 * bpmf::ExactSums::kLimbs, 0), limbs(summed.size());
  for (int p = 0; p < kParts; ++p) {
    part.clear();
    for (int k = 0; k < 50; ++k) {
      const double t = dist(gen) * (k % 7 == 0 ? 1e3 : 1.0);
      part.add(0, t);
      part.add(1, -std::abs(t));
      part.add(2, std::ldexp(t, -40));
      whole.add(0, t);
      whole.add(1, -std::abs(t));
      whole.add(2, std::ldexp(t, -40));
    }
    part.to_limbs(limbs.data());
    for (std::size_t i = 0; i < limbs.size(); ++i) summed[i] += limbs[i];
  }
  bpmf::ExactSums total(3);
  total.from_limbs(summed.data());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(total.value(i), whole.value(i)) << "sum " << i;
  EXPECT_LT(total.value(1), 0.0);
}

}  // namespace
