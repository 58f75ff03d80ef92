// Bcast of `size` elements from --root (any rank, leader or not), bound per size
// (Bcast::create_fixed, as MPI_Bcast_init). The root copies its source into
// slot() inside the timed step, as a producer would.
#include "operation.hpp"

namespace hympi::bench {

namespace {

template <class T>
class BcastData final : public Data {
 public:
  BcastData(const Topology& topo, const Variant& variant, int root)
      : topo_(topo), options_(variant.options), root_(root) {}

  PersistentCollective& bind(std::int64_t size) override {
    size_ = size;
    collective_.reset();  // the old windows go before the new ones are made
    collective_ = Bcast::create_fixed(topo_, root_, size, sizeof(T), options_);
    return *collective_;
  }

  std::size_t contribution_bytes() const override {
    return topo_.rank() == root_ ? static_cast<std::size_t>(size_) * sizeof(T) : 0;
  }

  void fill(void* out, int iteration) const override {
    T* values = static_cast<T*>(out);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(contribution_bytes() / sizeof(T)); ++i)
      values[i] = element_value<T>(iteration, root_, i);
  }

  std::int64_t errors(const void* result, int iteration) const override {
    const T* values = static_cast<const T*>(result);
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < size_; ++i) wrong += values[i] != element_value<T>(iteration, root_, i);
    return wrong;
  }

  std::int64_t result_elements() const override { return size_; }

 private:
  const Topology& topo_;
  CollectiveOptions options_;
  int root_;
  std::int64_t size_ = 0;
  std::unique_ptr<PersistentCollective> collective_;
};

std::unique_ptr<Data> make(const Topology& topo, const Variant& variant, const DataSetting& setting) {
  return with_element(setting.element, [&](auto zero) -> std::unique_ptr<Data> {
    return std::make_unique<BcastData<decltype(zero)>>(topo, variant, setting.root);
  });
}

}  // namespace

OperationKind bcast_kind() {
  return {"bcast", "Bcast", make, false, true};
}

}  // namespace hympi::bench
