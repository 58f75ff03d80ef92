// Allgather and Allgatherv: every rank copies its source into slot() and runs the
// exchange, whatever the policy, so pure and hybrid do the same work per
// iteration (MPI_Allgather / MPI_Allgatherv under pure).
//  * allgather:  every rank contributes `size` elements;
//  * allgatherv: rank r contributes size * (1 + r % 3), so neighbours differ and
//    nodes hold unequal shares whatever the placement ("size" in the output is
//    the base count).
#include "operation.hpp"

namespace hympi::bench {

namespace {

template <class T>
class GatherData final : public Data {
 public:
  GatherData(const Topology& topo, const Variant& variant, CountsRule rule, bool equal_counts)
      : topo_(topo), rule_(rule) {
    // Created once for the smallest shape; bind() grows it through set_counts().
    const auto counts = rule_(1, topo.size());
    collective_ = equal_counts ? Allgatherv::create_allgather(topo, counts[0], sizeof(T), variant.options)
                               : Allgatherv::create(topo, counts, sizeof(T), variant.options);
  }

  PersistentCollective& bind(std::int64_t size) override {
    collective_->set_counts(rule_(size, topo_.size()));
    return *collective_;
  }

  std::size_t contribution_bytes() const override {
    return static_cast<std::size_t>(collective_->counts()[topo_.rank()]) * sizeof(T);
  }

  void fill(void* out, int iteration) const override {
    T* values = static_cast<T*>(out);
    for (std::int64_t i = 0; i < collective_->counts()[topo_.rank()]; ++i)
      values[i] = element_value<T>(iteration, topo_.rank(), i);
  }

  std::int64_t errors(const void* result, int iteration) const override {
    const T* values = static_cast<const T*>(result);
    const auto& counts = collective_->counts();
    const auto& displs = collective_->displs();
    std::int64_t wrong = 0;
    for (int r = 0; r < topo_.size(); ++r)
      for (std::int64_t i = 0; i < counts[r]; ++i) wrong += values[displs[r] + i] != element_value<T>(iteration, r, i);
    return wrong;
  }

  std::int64_t result_elements() const override {
    std::int64_t total = 0;
    for (auto count : collective_->counts()) total += count;
    return total;
  }

 private:
  const Topology& topo_;
  CountsRule rule_;
  std::unique_ptr<Allgatherv> collective_;
};

std::unique_ptr<Data> make_gather_data(const Topology& topo, const Variant& variant, const DataSetting& setting,
                                       CountsRule rule, bool equal_counts) {
  return with_element(setting.element, [&](auto zero) -> std::unique_ptr<Data> {
    return std::make_unique<GatherData<decltype(zero)>>(topo, variant, rule, equal_counts);
  });
}

std::vector<std::int64_t> equal_counts(std::int64_t size, int ranks) {
  return std::vector<std::int64_t>(ranks, size);
}

std::vector<std::int64_t> irregular_counts(std::int64_t size, int ranks) {
  std::vector<std::int64_t> counts(ranks);
  for (int r = 0; r < ranks; ++r) counts[r] = size * (1 + r % 3);
  return counts;
}

}  // namespace

OperationKind allgather_kind() {
  return {"allgather", "Allgather", [](const Topology& topo, const Variant& variant, const DataSetting& setting) {
            return make_gather_data(topo, variant, setting, equal_counts, true);
          }};
}

OperationKind allgatherv_kind() {
  return {"allgatherv", "Allgatherv", [](const Topology& topo, const Variant& variant, const DataSetting& setting) {
            return make_gather_data(topo, variant, setting, irregular_counts, false);
          }};
}

}  // namespace hympi::bench
