// Names of variants and operations as the command line and the CSV spell them.
#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "operation.hpp"

namespace hympi::bench {

std::string Variant::policy_name() const {
  return runs_collective ? to_string(options.policy) : "none";
}

std::string Variant::sync_name() const {
  if (!runs_collective) return "barrier";  // the node barrier is the sync alone
  return options.policy == Policy::hybrid ? to_string(options.sync) : "";
}

// The names come from the core's enum tables: pure, hybrid-<sync> for every
// node sync, and the node barrier.
std::vector<std::string> variant_names() {
  std::vector<std::string> names = {to_string(Policy::pure)};
  for (const auto& sync : EnumTable<SyncKind>::names)
    names.push_back(std::string(to_string(Policy::hybrid)) + "-" + sync.text);
  names.push_back(kNodeBarrier);
  return names;
}

// A variant name, optionally with "@G": the core's grouped collectives with G
// groups (a positive integer) or "@auto" (the route model's G).
Variant parse_variant(const std::string& spelled) {
  const auto at = spelled.find('@');
  const std::string name = spelled.substr(0, at);
  const auto names = variant_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw std::invalid_argument("unknown variant '" + spelled + "' (expected one of pure, hybrid-barrier, "
                                "hybrid-flags, node-barrier, optionally with @G or @auto)");
  Variant v;
  v.name = spelled;
  if (name == kNodeBarrier)
    v.runs_collective = false;
  else if (name == to_string(Policy::pure))
    v.options = {Policy::pure, SyncKind::barrier};
  else
    v.options = {Policy::hybrid, parse_sync(name.substr(name.find('-') + 1))};
  if (at != std::string::npos) {
    const std::string g = spelled.substr(at + 1);
    char* end = nullptr;
    const long n = g == "auto" ? 0 : std::strtol(g.c_str(), &end, 10);
    if (!v.runs_collective || (g != "auto" && (g.empty() || *end != '\0' || n < 1 || n > (1 << 20))))
      throw std::invalid_argument("bad variant '" + spelled + "': @G takes a positive integer or auto, on a " +
                                  "collective variant (pure, hybrid-barrier, hybrid-flags)");
    v.options.groups = static_cast<int>(n);
  }
  return v;
}

std::vector<std::string> operation_names() {
  std::vector<std::string> names;
  for (const auto& kind : operation_kinds(Reduction{})) names.push_back(kind.name);
  return names;
}

std::vector<OperationKind> operation_kinds(const Reduction& reduction) {
  return {allgather_kind(), allgatherv_kind(), bcast_kind(), allreduce_kind(reduction), reduce_kind(reduction),
          gather_kind(),     scatter_kind()};
}

std::int64_t grouping_bytes(const OperationKind& kind, std::int64_t size, std::int64_t result_elements, int ranks,
                            std::size_t element_bytes) {
  const auto element = static_cast<std::int64_t>(element_bytes);
  if (kind.name == "allgather" || kind.name == "allgatherv") return result_elements * element;
  if (kind.name == "gather" || kind.name == "scatter") return size * ranks * element;  // as the core's create
  return size * element;
}

OperationKind find_operation(const std::string& name, const Reduction& reduction) {
  for (const auto& kind : operation_kinds(reduction))
    if (kind.name == name) return kind;
  throw std::invalid_argument("unknown operation '" + name + "'");
}

}  // namespace hympi::bench
