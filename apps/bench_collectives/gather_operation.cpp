// The allgather(v) measured by allgather.cpp and allgatherv.cpp: every rank
// copies its source into slot() and runs the exchange, whatever the policy, so
// pure and hybrid do the same work per iteration.
#include <cstring>

#include "operation.hpp"

namespace hympi::bench {

namespace {

class GatherOperation : public Operation {
 public:
  GatherOperation(const Topology& topo, const Variant& variant, CountsRule rule, bool equal_counts)
      : topo_(topo), rule_(rule), equal_counts_(equal_counts) {
    // Created once for the smallest shape; resize() grows it through set_counts().
    const auto counts = rule_(1, topo.size());
    collective_ = equal_counts_ ? Allgatherv::create_allgather(topo, counts[0], sizeof(double), variant.options)
                                : Allgatherv::create(topo, counts, sizeof(double), variant.options);
  }

  void resize(std::int64_t size) override {
    collective_->set_counts(rule_(size, topo_.size()));
    source_.resize(static_cast<std::size_t>(collective_->counts()[topo_.rank()]));
    prepare(0);
  }

  void prepare(int iteration) override {
    for (std::size_t i = 0; i < source_.size(); ++i) source_[i] = pattern(iteration, topo_.rank(), i);
  }

  void write() override { std::memcpy(collective_->slot(), source_.data(), source_.size() * sizeof(double)); }
  void exchange() override { collective_->run(); }

  std::int64_t errors(int iteration) const override {
    const double* result = collective_->result_as<double>();
    const auto& counts = collective_->counts();
    const auto& displs = collective_->displs();
    std::int64_t wrong = 0;
    for (int r = 0; r < topo_.size(); ++r)
      for (std::int64_t i = 0; i < counts[r]; ++i) wrong += result[displs[r] + i] != pattern(iteration, r, i);
    return wrong;
  }

  std::int64_t result_doubles() const override {
    std::int64_t total = 0;
    for (auto count : collective_->counts()) total += count;
    return total;
  }

  std::size_t bytes_per_node() const override { return collective_->bytes_per_node(); }

 private:
  const Topology& topo_;
  CountsRule rule_;
  bool equal_counts_;
  std::unique_ptr<Allgatherv> collective_;
  std::vector<double> source_;
};

}  // namespace

std::unique_ptr<Operation> make_gather_operation(const Topology& topo, const Variant& variant, CountsRule rule,
                                                 bool equal_counts) {
  return std::make_unique<GatherOperation>(topo, variant, rule, equal_counts);
}

}  // namespace hympi::bench
