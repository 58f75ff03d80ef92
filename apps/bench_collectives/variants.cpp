// Names of variants and operations as the command line and the CSV spell them.
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

Variant parse_variant(const std::string& name) {
  Variant v;
  v.name = name;
  if (name == "pure") {
    v.options = {Policy::pure, SyncKind::barrier};
  } else if (name == "hybrid-barrier") {
    v.options = {Policy::hybrid, SyncKind::barrier};
  } else if (name == "hybrid-flags") {
    v.options = {Policy::hybrid, SyncKind::flags};
  } else if (name == "node-barrier") {
    v.runs_collective = false;
  } else {
    throw std::invalid_argument("unknown variant '" + name + "'");
  }
  return v;
}

OperationKind find_operation(const std::string& name, const Reduction& reduction) {
  const std::vector<OperationKind> kinds = {allgather_kind(), allgatherv_kind(), bcast_kind(),
                                            allreduce_kind(reduction), reduce_kind(reduction)};
  for (const auto& kind : kinds)
    if (kind.name == name) return kind;
  throw std::invalid_argument("unknown operation '" + name + "'");
}

}  // namespace hympi::bench
