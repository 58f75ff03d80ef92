// Allgather: every rank contributes `size` doubles (MPI_Allgather under pure).
#include "operation.hpp"

namespace hympi::bench {

namespace {
std::vector<std::int64_t> equal_counts(std::int64_t size, int ranks) {
  return std::vector<std::int64_t>(ranks, size);
}

std::unique_ptr<Operation> make(const Topology& topo, const Variant& variant, int /*root*/, std::int64_t /*max_size*/) {
  return make_gather_operation(topo, variant, equal_counts, true);
}
}  // namespace

OperationKind allgather_kind() {
  return {"allgather", "Allgather", make};
}

}  // namespace hympi::bench
