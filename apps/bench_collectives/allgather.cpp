// Allgather: every rank contributes `size` doubles (MPI_Allgather under pure).
#include "operation.hpp"

namespace hympi::bench {

namespace {
std::vector<std::int64_t> equal_counts(std::int64_t size, int ranks) {
  return std::vector<std::int64_t>(ranks, size);
}

std::unique_ptr<Data> make(const Topology& topo, const Variant& variant, const DataSetting& setting) {
  return make_gather_data(topo, variant, setting, equal_counts, true);
}
}  // namespace

OperationKind allgather_kind() {
  return {"allgather", "Allgather", make};
}

}  // namespace hympi::bench
