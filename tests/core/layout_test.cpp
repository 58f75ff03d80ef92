#include <gtest/gtest.h>

#include <cstdlib>

#include "hympi/error.hpp"
#include "hympi/layout.hpp"

using hympi::assign_emulated_nodes;
using hympi::LayoutSpec;
using hympi::Placement;

TEST(Layout, NoEmulationPutsEveryoneOnOneNode) {
  EXPECT_EQ(assign_emulated_nodes(3, LayoutSpec{}), (std::vector<int>{0, 0, 0}));
}

TEST(Layout, RegularBlock) {
  LayoutSpec spec;
  spec.ranks_per_node = 2;
  EXPECT_EQ(assign_emulated_nodes(5, spec), (std::vector<int>{0, 0, 1, 1, 2}));
}

TEST(Layout, RegularRoundRobin) {
  LayoutSpec spec;
  spec.ranks_per_node = 2;
  spec.placement = Placement::round_robin;
  EXPECT_EQ(assign_emulated_nodes(6, spec), (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

TEST(Layout, IrregularRoundRobinSkipsFullNodes) {
  LayoutSpec spec;
  spec.node_sizes = {1, 3};
  spec.placement = Placement::round_robin;
  EXPECT_EQ(assign_emulated_nodes(4, spec), (std::vector<int>{0, 1, 1, 1}));
  spec.node_sizes = {3, 1, 2};
  EXPECT_EQ(assign_emulated_nodes(6, spec), (std::vector<int>{0, 1, 2, 0, 2, 0}));
}

TEST(Layout, IrregularBlock) {
  LayoutSpec spec;
  spec.node_sizes = {4, 2};
  EXPECT_EQ(assign_emulated_nodes(6, spec), (std::vector<int>{0, 0, 0, 0, 1, 1}));
}

TEST(Layout, SizesMustAddUp) {
  LayoutSpec spec;
  spec.node_sizes = {2, 2};
  EXPECT_THROW(assign_emulated_nodes(5, spec), hympi::Error);
}

TEST(Layout, ParsesOptionText) {
  EXPECT_EQ(hympi::parse_node_sizes("4,2"), (std::vector<int>{4, 2}));
  EXPECT_THROW(hympi::parse_node_sizes("4,,2"), hympi::Error);
  EXPECT_THROW(hympi::parse_node_sizes("4,0"), hympi::Error);
  EXPECT_THROW(hympi::parse_node_sizes("x"), hympi::Error);
  EXPECT_EQ(hympi::parse_placement("rr"), Placement::round_robin);
  EXPECT_THROW(hympi::parse_placement("diagonal"), hympi::Error);
}

TEST(Layout, ReadsEnvironment) {
  setenv("HYMPI_RANKS_PER_NODE", "3", 1);
  setenv("HYMPI_PLACEMENT", "roundrobin", 1);
  unsetenv("HYMPI_NODE_SIZES");
  LayoutSpec spec = hympi::layout_from_env();
  EXPECT_EQ(spec.ranks_per_node, 3);
  EXPECT_EQ(spec.placement, Placement::round_robin);
  EXPECT_EQ(spec.describe(), "rpn=3,round-robin");
  setenv("HYMPI_RANKS_PER_NODE", "three", 1);
  EXPECT_THROW(hympi::layout_from_env(), hympi::Error);
  unsetenv("HYMPI_RANKS_PER_NODE");
  unsetenv("HYMPI_PLACEMENT");
  EXPECT_FALSE(hympi::layout_from_env().emulated());
}
