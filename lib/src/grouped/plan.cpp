// Which path a collective with options.groups takes: the effective G.
#include <algorithm>

#include "grouped/grouped.hpp"
#include "hympi/topology.hpp"

namespace hympi {

namespace detail {

namespace {

bool by_nodes(const Topology& topo, const CollectiveOptions& options) {
  return options.policy == Policy::hybrid && !topo.is_flat();
}

}  // namespace

int units(const Topology& topo, const CollectiveOptions& options) {
  return by_nodes(topo, options) ? topo.num_nodes() : topo.size();
}

GroupPlan grouped_plan(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes) {
  const int requested =
      options.groups == 0 ? automatic_groups(units(topo, options), bytes, by_nodes(topo, options)) : options.groups;
  return plan_groups(topo, std::max(requested, 1), by_nodes(topo, options));
}

bool is_flat(const Topology& topo, const CollectiveOptions& options, const GroupPlan& plan) {
  return plan.groups <= 1 || plan.groups >= units(topo, options);
}

CollectiveOptions inner_options(CollectiveOptions options) {
  options.groups = 1;
  return options;
}

}  // namespace detail

int effective_groups(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes) {
  if (options.groups == 1) return 1;
  return detail::grouped_plan(topo, options, bytes).groups;
}

double grouped_model_seconds(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes) {
  const int g = effective_groups(topo, options, bytes);
  const int n = detail::units(topo, options);
  if (g <= 1 || g >= n) return 0;
  return detail::grouped_seconds(n, g, bytes, detail::model_machine(), detail::by_nodes(topo, options));
}

}  // namespace hympi
