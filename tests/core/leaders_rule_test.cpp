// The automatic multi-leader rule (options.leaders = 0), README "Multi-leader":
// one bridge rank per 256 KiB moved per call, at least one, at most the largest
// node. Pins the measured thresholds so a change to them is a visible decision.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "bridges.hpp"

namespace {

using hympi::detail::automatic_leaders;
using hympi::detail::kBytesPerLeader;

TEST(AutomaticLeaders, OneLeaderBelowTwiceTheShare) {
  EXPECT_EQ(automatic_leaders(0, 24), 1);
  EXPECT_EQ(automatic_leaders(8, 24), 1);
  EXPECT_EQ(automatic_leaders(256 * 1024, 24), 1);  // 32768 doubles: k = 2 did not pay
  EXPECT_EQ(automatic_leaders(2 * kBytesPerLeader - 1, 24), 1);
}

TEST(AutomaticLeaders, OneLeaderPerShareAbove) {
  EXPECT_EQ(automatic_leaders(512 * 1024, 24), 2);  // 65536 doubles: k = 2 paid
  EXPECT_EQ(automatic_leaders(1024 * 1024, 24), 4);
  EXPECT_EQ(automatic_leaders(5 * kBytesPerLeader + 7, 24), 5);
}

TEST(AutomaticLeaders, CappedByTheLargestNode) {
  EXPECT_EQ(automatic_leaders(1024 * 1024, 2), 2);
  EXPECT_EQ(automatic_leaders(std::numeric_limits<std::uint64_t>::max(), 24), 24);
  EXPECT_EQ(automatic_leaders(1024 * 1024, 1), 1);
  EXPECT_EQ(automatic_leaders(1024 * 1024, 0), 1);  // no node size known: one leader
}

}  // namespace
