#include "layout_options.hpp"

namespace hympi::apps {

void add_layout_options(CLI::App& app, LayoutOptions& options) {
  app.add_option("--ranks-per-node", options.ranks_per_node,
                 "Emulate nodes of this many ranks (0 = real nodes; default $HYMPI_RANKS_PER_NODE)")
      ->group("Node layout");
  app.add_option("--node-sizes", options.node_sizes, "Emulate irregular nodes, e.g. 4,2 (default $HYMPI_NODE_SIZES)")
      ->group("Node layout");
  app.add_option("--placement", options.placement,
                 "Rank placement on emulated nodes: block | roundrobin (default $HYMPI_PLACEMENT or block)")
      ->group("Node layout");
}

LayoutSpec LayoutOptions::resolve() const {
  LayoutSpec spec = layout_from_env();
  if (ranks_per_node >= 0) {
    spec.ranks_per_node = ranks_per_node;
    spec.node_sizes.clear();
  }
  if (!node_sizes.empty()) spec.node_sizes = parse_node_sizes(node_sizes);
  if (!placement.empty()) spec.placement = parse_placement(placement);
  return spec;
}

}  // namespace hympi::apps
