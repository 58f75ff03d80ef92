// Node layouts: which node each rank of a communicator lives on. Real layouts
// come from MPI_Comm_split_type(SHARED); emulated ones split a real node further
// so that multi-node code paths run on one machine. Pure logic, no MPI calls.
#pragma once
#include <string>
#include <vector>

#include "hympi/enums.hpp"  // Placement, parse_placement, to_string

namespace hympi {

struct LayoutSpec {
  // Emulation off when both are empty/zero: the real shared-memory nodes are used.
  int ranks_per_node = 0;       // regular emulated nodes of this many ranks (last may be smaller)
  std::vector<int> node_sizes;  // irregular emulated nodes, e.g. {4, 2}; wins over ranks_per_node
  Placement placement = Placement::block;

  bool emulated() const { return ranks_per_node > 0 || !node_sizes.empty(); }
  std::string describe() const;  // "real", "rpn=2,block", "nodes=4+2,round-robin"
  bool operator<(const LayoutSpec& o) const;
  bool operator==(const LayoutSpec& o) const;
};

// Reads HYMPI_RANKS_PER_NODE, HYMPI_NODE_SIZES ("4,2") and HYMPI_PLACEMENT
// (parse_placement's names); unset means no emulation. Throws on malformed values.
LayoutSpec layout_from_env();

// Node sizes as every app takes them: "4,2". Throws hympi::Error naming the bad text.
std::vector<int> parse_node_sizes(const std::string& text);

// node_of_rank[r] for r in [0, size): emulated node index of each rank. Block fills
// node 0 first; round-robin deals ranks cyclically, skipping full nodes. Throws if
// the node sizes do not add up to `size` or any is < 1.
std::vector<int> assign_emulated_nodes(int size, const LayoutSpec& spec);

}  // namespace hympi
