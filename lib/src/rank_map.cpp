#include "hympi/rank_map.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "hympi/error.hpp"

namespace hympi {

std::vector<std::int64_t> displacements(const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> displs(counts.size());
  std::int64_t sum = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    require(counts[r] >= 0, "count of rank " + std::to_string(r) + " is negative (" + std::to_string(counts[r]) + ")");
    require(sum <= std::numeric_limits<std::int64_t>::max() - counts[r], "total count overflows");
    displs[r] = sum;
    sum += counts[r];
  }
  return displs;
}

NodeRankMap make_node_rank_map(const std::vector<int>& node_id_of_rank) {
  NodeRankMap map;
  std::map<int, int> index_of_id;  // ids renumbered in order of first (lowest) rank
  map.node_of_rank.resize(node_id_of_rank.size());
  for (std::size_t r = 0; r < node_id_of_rank.size(); ++r) {
    auto [it, fresh] = index_of_id.emplace(node_id_of_rank[r], static_cast<int>(index_of_id.size()));
    if (fresh) map.ranks_of_node.emplace_back();
    map.node_of_rank[r] = it->second;
    map.ranks_of_node[it->second].push_back(static_cast<int>(r));
  }
  map.num_nodes = static_cast<int>(map.ranks_of_node.size());
  map.contiguous = true;
  for (const auto& ranks : map.ranks_of_node)
    if (ranks.back() - ranks.front() + 1 != static_cast<int>(ranks.size())) map.contiguous = false;
  return map;
}

std::vector<Block> node_blocks(const NodeRankMap& map, int node, const std::vector<std::int64_t>& counts,
                               const std::vector<std::int64_t>& displs) {
  std::vector<Block> blocks;
  for (int r : map.ranks_of_node.at(node)) {
    if (counts[r] == 0) continue;
    if (!blocks.empty() && blocks.back().displacement + blocks.back().count == displs[r])
      blocks.back().count += counts[r];
    else
      blocks.push_back({displs[r], counts[r]});
  }
  return blocks;
}

std::vector<Block> sub_blocks(const std::vector<Block>& blocks, std::int64_t first, std::int64_t last) {
  std::vector<Block> out;
  std::int64_t start = 0;  // position of the current block in the concatenation
  for (const Block& b : blocks) {
    const std::int64_t lo = std::max(first, start), hi = std::min(last, start + b.count);
    if (lo < hi) out.push_back({b.displacement + (lo - start), hi - lo});
    start += b.count;
  }
  return out;
}

}  // namespace hympi
