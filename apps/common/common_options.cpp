#include "common_options.hpp"

#include "hympi/error.hpp"

namespace hympi::apps {

void add_common_options(CLI::App& app, CommonOptions& options, const std::string& csv_help) {
  app.add_option("--csv", options.csv, csv_help)->group("Output");
  LayoutOptions& layout = options.layout;
  app.add_option("--ranks-per-node", layout.ranks_per_node,
                 "Emulate nodes of this many ranks (0 = real nodes; default $HYMPI_RANKS_PER_NODE)")
      ->group("Node layout");
  app.add_option("--node-sizes", layout.node_sizes, "Emulate irregular nodes, e.g. 4,2 (default $HYMPI_NODE_SIZES)")
      ->group("Node layout");
  std::string placements;
  for (const auto& name : enum_names<Placement>()) placements += (placements.empty() ? "" : " | ") + name;
  app.add_option("--placement", layout.placement,
                 "Rank placement on emulated nodes: " + placements + " (default $HYMPI_PLACEMENT or block)")
      ->group("Node layout");
}

LayoutSpec LayoutOptions::resolve(int comm_size) const {
  try {
    LayoutSpec spec = layout_from_env();
    if (ranks_per_node >= 0) {
      spec.ranks_per_node = ranks_per_node;
      spec.node_sizes.clear();
    }
    if (!node_sizes.empty()) spec.node_sizes = parse_node_sizes(node_sizes);
    if (!placement.empty()) spec.placement = parse_placement(placement);
    if (spec.emulated()) assign_emulated_nodes(comm_size, spec);  // checked before any collective
    return spec;
  } catch (const std::exception& e) {
    throw Error(ErrorCode::invalid_argument, std::string("bad node layout: ") + e.what());
  }
}

}  // namespace hympi::apps
