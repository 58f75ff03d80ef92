// Allgatherv with irregular counts: rank r contributes size * (1 + r % 3)
// doubles, so neighbours differ and nodes hold unequal shares whatever the
// placement (MPI_Allgatherv under pure). "size" in the output is the base count.
#include "operation.hpp"

namespace hympi::bench {

namespace {
std::vector<std::int64_t> irregular_counts(std::int64_t size, int ranks) {
  std::vector<std::int64_t> counts(ranks);
  for (int r = 0; r < ranks; ++r) counts[r] = size * (1 + r % 3);
  return counts;
}

std::unique_ptr<Data> make(const Topology& topo, const Variant& variant, const DataSetting& setting) {
  return make_gather_data(topo, variant, setting, irregular_counts, false);
}
}  // namespace

OperationKind allgatherv_kind() {
  return {"allgatherv", "Allgatherv", make};
}

}  // namespace hympi::bench
