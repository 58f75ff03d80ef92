#include "hympi/rank_map.hpp"

#include <gtest/gtest.h>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"

TEST(RankMap, Displacements) {
  EXPECT_EQ(hympi::displacements({3, 0, 2, 5}), (std::vector<std::int64_t>{0, 3, 3, 5}));
  EXPECT_TRUE(hympi::displacements({}).empty());
  EXPECT_THROW(hympi::displacements({1, -1}), hympi::Error);
}

TEST(RankMap, NodesNumberedByLowestRank) {
  // Node ids as leaders' ranks would give them, in any order.
  auto map = hympi::make_node_rank_map({7, 7, 3, 3, 7});
  EXPECT_EQ(map.num_nodes, 2);
  EXPECT_EQ(map.node_of_rank, (std::vector<int>{0, 0, 1, 1, 0}));
  EXPECT_EQ(map.ranks_of_node[0], (std::vector<int>{0, 1, 4}));
  EXPECT_FALSE(map.contiguous);
}

TEST(RankMap, BlockPlacementIsContiguous) {
  auto map = hympi::make_node_rank_map({0, 0, 2, 2, 2, 5});
  EXPECT_TRUE(map.contiguous);
  EXPECT_EQ(map.num_nodes, 3);
}

TEST(RankMap, NodeBlocksMergeNeighbours) {
  auto map = hympi::make_node_rank_map({0, 0, 1, 0, 1});
  std::vector<std::int64_t> counts{2, 3, 4, 0, 1};
  auto displs = hympi::displacements(counts);  // {0, 2, 5, 9, 9}
  auto blocks = hympi::node_blocks(map, 0, counts, displs);
  ASSERT_EQ(blocks.size(), 1u);  // ranks 0,1 merge; rank 3 is empty
  EXPECT_EQ(blocks[0].displacement, 0);
  EXPECT_EQ(blocks[0].count, 5);
  // Rank 4 starts where rank 2 ends (the empty rank 3 between them): one block.
  blocks = hympi::node_blocks(map, 1, counts, displs);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].displacement, 5);
  EXPECT_EQ(blocks[0].count, 5);
  counts = {2, 3, 4, 1, 1};
  displs = hympi::displacements(counts);  // {0, 2, 5, 9, 10}
  blocks = hympi::node_blocks(map, 1, counts, displs);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].displacement, 5);
  EXPECT_EQ(blocks[0].count, 4);
  EXPECT_EQ(blocks[1].displacement, 10);
  EXPECT_EQ(blocks[1].count, 1);
}

// Multi-leader slices: cutting a node's blocks anywhere keeps every element once, in order.
TEST(NodeRankMap, SubBlocksCutAcrossBlocks) {
  const std::vector<hympi::Block> blocks{{5, 4}, {10, 1}, {20, 3}};  // 8 elements
  auto part = hympi::sub_blocks(blocks, 2, 6);                       // elements 2..5
  ASSERT_EQ(part.size(), 3u);
  EXPECT_EQ(part[0].displacement, 7);
  EXPECT_EQ(part[0].count, 2);
  EXPECT_EQ(part[1].displacement, 10);
  EXPECT_EQ(part[1].count, 1);
  EXPECT_EQ(part[2].displacement, 20);
  EXPECT_EQ(part[2].count, 1);
  EXPECT_TRUE(hympi::sub_blocks(blocks, 3, 3).empty());
  std::int64_t covered = 0;
  for (int s = 0; s < 3; ++s)
    for (const auto& b : hympi::sub_blocks(blocks, 8 * s / 3, 8 * (s + 1) / 3)) covered += b.count;
  EXPECT_EQ(covered, 8);
}

TEST(TwoLevelShape, GroupMajorMakesGroupsContiguous) {
  hympi::TwoLevelShape shape{4, 4, 2, 2, hympi::GridOrder::row_major, true};
  // Group (0,0) = rows 0-1, cols 0-1 -> ranks 0..3.
  EXPECT_EQ(shape.rank_of(0, 0), 0);
  EXPECT_EQ(shape.rank_of(0, 1), 1);
  EXPECT_EQ(shape.rank_of(1, 1), 3);
  EXPECT_EQ(shape.rank_of(0, 2), 4);
  EXPECT_EQ(shape.rank_of(3, 3), 15);
  hympi::TwoLevelShape plain{4, 4, 2, 2, hympi::GridOrder::row_major, false};
  EXPECT_EQ(plain.rank_of(1, 2), 6);
  hympi::TwoLevelShape col{2, 3, 1, 3, hympi::GridOrder::column_major, false};
  EXPECT_EQ(col.rank_of(1, 2), 5);
}

TEST(TwoLevelShape, ValidateNamesTheMismatch) {
  hympi::TwoLevelShape shape{2, 3, 2, 2, hympi::GridOrder::row_major, false};
  try {
    shape.validate(6);
    FAIL() << "expected an error";
  } catch (const hympi::Error& e) {
    EXPECT_NE(std::string(e.what()).find("groups 2x2 must divide the grid 2x3"), std::string::npos);
  }
  EXPECT_THROW((hympi::TwoLevelShape{2, 3, 1, 1, hympi::GridOrder::row_major, false}.validate(5)), hympi::Error);
}
