// Rank maps and count arithmetic for node-aware collectives. Pure logic, unit tested.
#pragma once
#include <cstdint>
#include <vector>

namespace hympi {

// Exclusive prefix sum; throws if any count is negative or the total overflows int64.
std::vector<std::int64_t> displacements(const std::vector<std::int64_t>& counts);

// Where every rank's data sits when results are kept in communicator-rank order,
// and how each node's contribution looks in that order.
struct NodeRankMap {
  int num_nodes = 0;
  std::vector<int> node_of_rank;                // comm rank -> node index (nodes ordered by leader rank)
  std::vector<std::vector<int>> ranks_of_node;  // node index -> comm ranks, ascending
  // True when each node holds a contiguous range of comm ranks, in node order
  // (block placement): then one node's data is one contiguous piece.
  bool contiguous = false;
};

// Builds the map from any node assignment (e.g. what MPI_Comm_split_type gave,
// gathered to all ranks). Node ids may be arbitrary ints; they are renumbered by
// their lowest rank, which is how the bridge communicator orders leaders.
NodeRankMap make_node_rank_map(const std::vector<int>& node_id_of_rank);

// Blocks [(displacement, count)] of one node's ranks in comm-rank order, with
// adjacent ranks merged.
struct Block {
  std::int64_t displacement;
  std::int64_t count;
};
std::vector<Block> node_blocks(const NodeRankMap& map, int node, const std::vector<std::int64_t>& counts,
                               const std::vector<std::int64_t>& displs);

// The part of `blocks` holding elements [first, last) of their concatenation
// (a multi-leader slice of one node's data), as blocks again.
std::vector<Block> sub_blocks(const std::vector<Block>& blocks, std::int64_t first, std::int64_t last);

}  // namespace hympi
