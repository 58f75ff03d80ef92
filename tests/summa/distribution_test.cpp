// Distribution arithmetic of SUMMA/HSUMMA: block-cyclic ownership and the panel schedule.
#include <gtest/gtest.h>

#include <numeric>

#include "hympi/error.hpp"
#include "hympi/hsumma/distribution.hpp"

using hympi::hsumma::BlockCyclic1D;
using hympi::hsumma::hsumma_schedule;

TEST(BlockCyclic1D, BlockRemainderGoesToTheLastProcesses) {
  const auto d = BlockCyclic1D::block(5, 4);  // blocks of 2: 2, 2, 1, 0
  EXPECT_EQ(d.nb, 2);
  EXPECT_EQ(d.local_size(0), 2);
  EXPECT_EQ(d.local_size(1), 2);
  EXPECT_EQ(d.local_size(2), 1);
  EXPECT_EQ(d.local_size(3), 0);
  EXPECT_EQ(d.first(2), 4);
  EXPECT_EQ(d.first(3), 5);
  EXPECT_TRUE(d.is_block());
}

TEST(BlockCyclic1D, MatchesNumrocForCyclicBlocks) {
  const BlockCyclic1D d{10, 3, 2};  // blocks 0,2 -> p0 (3+3), blocks 1,3(partial 1) -> p1 (3+1)
  EXPECT_EQ(d.local_size(0), 6);
  EXPECT_EQ(d.local_size(1), 4);
  EXPECT_FALSE(d.is_block());
  EXPECT_EQ(d.global_index(1, 3), 9);
  EXPECT_EQ(d.owner(9), 1);
  EXPECT_EQ(d.local_index(9), 3);
}

TEST(BlockCyclic1D, EveryIndexHasExactlyOneOwnerAndRoundTrips) {
  for (std::int64_t n : {1, 2, 7, 64, 100, 101})
    for (int p : {1, 2, 3, 4, 6})
      for (std::int64_t nb : {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, std::int64_t{64}}) {
        const BlockCyclic1D d = nb == 0 ? BlockCyclic1D::block(n, p) : BlockCyclic1D{n, nb, p};
        std::int64_t total = 0;
        std::vector<int> seen(n, 0);
        for (int proc = 0; proc < p; ++proc) {
          total += d.local_size(proc);
          for (std::int64_t l = 0; l < d.local_size(proc); ++l) {
            const std::int64_t g = d.global_index(proc, l);
            ASSERT_GE(g, 0);
            ASSERT_LT(g, n);
            ++seen[g];
            EXPECT_EQ(d.owner(g), proc);
            EXPECT_EQ(d.local_index(g), l);
          }
        }
        EXPECT_EQ(total, n) << "n=" << n << " p=" << p << " nb=" << nb;
        for (int count : seen) EXPECT_EQ(count, 1);
      }
}

TEST(Schedule, CoversKWithOwnersAndWidthLimits) {
  for (std::int64_t k : {1, 5, 17, 64, 199})
    for (int P : {1, 2, 3})
      for (int Q : {1, 2, 3})
        for (auto bm : {std::pair<int, int>{1, 1}, {4, 8}, {3, 9}, {16, 16}, {8, 64}}) {
          const auto steps = hsumma_schedule(k, P, Q, bm.second, bm.first);
          const auto a_cols = BlockCyclic1D::block(k, Q), b_rows = BlockCyclic1D::block(k, P);
          std::int64_t pos = 0;
          for (const auto& outer : steps) {
            EXPECT_EQ(outer.panel.k0, pos);
            EXPECT_LE(outer.panel.width(), bm.second);
            EXPECT_GE(outer.panel.width(), 1);
            // The whole outer panel lives on one grid column of A and one grid row of B.
            EXPECT_EQ(a_cols.owner(outer.panel.k0), outer.panel.a_col);
            EXPECT_EQ(a_cols.owner(outer.panel.k1 - 1), outer.panel.a_col);
            EXPECT_EQ(b_rows.owner(outer.panel.k0), outer.panel.b_row);
            EXPECT_EQ(b_rows.owner(outer.panel.k1 - 1), outer.panel.b_row);
            std::int64_t ipos = outer.panel.k0;
            for (const auto& inner : outer.inner) {
              EXPECT_EQ(inner.k0, ipos);
              EXPECT_LE(inner.width(), bm.first);
              EXPECT_GE(inner.width(), 1);
              EXPECT_EQ(inner.a_col, outer.panel.a_col);
              EXPECT_EQ(inner.b_row, outer.panel.b_row);
              ipos = inner.k1;
            }
            EXPECT_EQ(ipos, outer.panel.k1);
            pos = outer.panel.k1;
          }
          EXPECT_EQ(pos, k);
        }
}

// Inner steps do not depend on M: every group count performs the same dgemm sequence.
TEST(Schedule, InnerStepsIndependentOfOuterBlock) {
  auto inner_of = [](std::int64_t k, int P, int Q, std::int64_t M, std::int64_t b) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const auto& o : hsumma_schedule(k, P, Q, M, b))
      for (const auto& i : o.inner) out.emplace_back(i.k0, i.k1);
    return out;
  };
  for (std::int64_t k : {13, 100, 257})
    for (int P : {1, 2, 3})
      for (int Q : {1, 2, 4}) {
        const auto ref = inner_of(k, P, Q, 4, 4);
        for (std::int64_t M : {8, 12, 64, 400}) EXPECT_EQ(inner_of(k, P, Q, M, 4), ref);
      }
}

TEST(Schedule, UnevenOwnershipSplitsPanels) {
  // k = 10 over Q = 3 (blocks of 4: 4,4,2) and P = 2 (blocks of 5): breaks at 4, 5, 8.
  const auto steps = hsumma_schedule(10, 2, 3, 8, 8);
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].panel.k1, 4);
  EXPECT_EQ(steps[1].panel.k1, 5);
  EXPECT_EQ(steps[2].panel.k1, 8);
  EXPECT_EQ(steps[3].panel.k1, 10);
  EXPECT_EQ(steps[3].panel.a_col, 2);
  EXPECT_EQ(steps[3].panel.b_row, 1);
}

TEST(Schedule, RejectsBadBlocks) {
  EXPECT_THROW(hsumma_schedule(0, 1, 1, 4, 4), hympi::Error);
  EXPECT_THROW(hsumma_schedule(10, 1, 1, 4, 8), hympi::Error);   // b > M
  EXPECT_THROW(hsumma_schedule(10, 1, 1, 12, 8), hympi::Error);  // M % b != 0
  EXPECT_THROW(hsumma_schedule(10, 1, 1, 4, 0), hympi::Error);
  EXPECT_THROW(BlockCyclic1D::block(10, 0), hympi::Error);
}
