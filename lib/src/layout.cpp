#include "hympi/layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <tuple>

#include "hympi/error.hpp"

namespace hympi {

namespace {
int parse_positive(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  require(used == text.size() && !text.empty() && value >= 0,
          what + " must be a non-negative integer, got '" + text + "'");
  return value;
}
}  // namespace

std::string LayoutSpec::describe() const {
  if (!emulated()) return "real";
  std::ostringstream s;
  if (!node_sizes.empty()) {
    s << "nodes=";
    for (std::size_t i = 0; i < node_sizes.size(); ++i) s << (i ? "+" : "") << node_sizes[i];
  } else {
    s << "rpn=" << ranks_per_node;
  }
  s << (placement == Placement::block ? ",block" : ",round-robin");
  return s.str();
}

bool LayoutSpec::operator<(const LayoutSpec& o) const {
  return std::tie(ranks_per_node, node_sizes, placement) < std::tie(o.ranks_per_node, o.node_sizes, o.placement);
}
bool LayoutSpec::operator==(const LayoutSpec& o) const {
  return std::tie(ranks_per_node, node_sizes, placement) == std::tie(o.ranks_per_node, o.node_sizes, o.placement);
}

std::vector<int> parse_node_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    int size = parse_positive(item, "node size in '" + text + "'");
    require(size >= 1, "node sizes must be >= 1, got '" + text + "'");
    sizes.push_back(size);
  }
  require(!sizes.empty(), "node sizes must be a list like 4,2, got '" + text + "'");
  return sizes;
}

LayoutSpec layout_from_env() {
  LayoutSpec spec;
  if (const char* rpn = std::getenv("HYMPI_RANKS_PER_NODE"); rpn && *rpn)
    spec.ranks_per_node = parse_positive(rpn, "HYMPI_RANKS_PER_NODE");
  if (const char* sizes = std::getenv("HYMPI_NODE_SIZES"); sizes && *sizes) spec.node_sizes = parse_node_sizes(sizes);
  if (const char* placement = std::getenv("HYMPI_PLACEMENT"); placement && *placement)
    spec.placement = parse_placement(placement);
  return spec;
}

std::vector<int> assign_emulated_nodes(int size, const LayoutSpec& spec) {
  require(size >= 1, "communicator size must be >= 1");
  std::vector<int> sizes = spec.node_sizes;
  if (sizes.empty()) {
    if (spec.ranks_per_node <= 0) return std::vector<int>(size, 0);
    for (int left = size; left > 0; left -= spec.ranks_per_node) sizes.push_back(std::min(left, spec.ranks_per_node));
  }
  const int total = std::accumulate(sizes.begin(), sizes.end(), 0);
  require(total == size, "emulated node sizes " + spec.describe() + " add up to " + std::to_string(total) +
                             " ranks but the job has " + std::to_string(size));
  std::vector<int> node_of_rank(size);
  if (spec.placement == Placement::block) {
    int rank = 0;
    for (int node = 0; node < static_cast<int>(sizes.size()); ++node)
      for (int i = 0; i < sizes[node]; ++i) node_of_rank[rank++] = node;
  } else {
    // Deal ranks to nodes cyclically, skipping nodes that are already full.
    std::vector<int> filled(sizes.size(), 0);
    int node = 0;
    for (int rank = 0; rank < size; ++rank) {
      while (filled[node] == sizes[node]) node = (node + 1) % static_cast<int>(sizes.size());
      node_of_rank[rank] = node;
      ++filled[node];
      node = (node + 1) % static_cast<int>(sizes.size());
    }
  }
  return node_of_rank;
}

}  // namespace hympi
