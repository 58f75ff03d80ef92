// The node-layout options every app shares (CLI11):
//   --ranks-per-node N   emulate nodes of N ranks (default: $HYMPI_RANKS_PER_NODE, else real nodes)
//   --node-sizes 4,2     emulate irregular nodes ($HYMPI_NODE_SIZES)
//   --placement P        block | roundrobin ($HYMPI_PLACEMENT)
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "hympi/layout.hpp"

namespace hympi::apps {

struct LayoutOptions {
  int ranks_per_node = -1;  // -1: take the environment
  std::string node_sizes;
  std::string placement;
  LayoutSpec resolve() const;  // options override the environment; throws on bad text
};

void add_layout_options(CLI::App& app, LayoutOptions& options);

}  // namespace hympi::apps
