// Gather and Scatter of `size` elements per rank to / from --root (any rank,
// leader or not), bound per size (Gather::create / Scatter::create, as
// MPI_Gather_init / MPI_Scatter_init; MPI_Gather / MPI_Scatter under pure).
//  * gather:  every rank copies its part into slot() inside the timed step; the
//    root's result() holds every rank's part in rank order;
//  * scatter: the root copies the whole vector (size() parts, rank r's at
//    r * size) into slot() inside the timed step; every rank's result() holds its part.
// Both check against what MPI_Gather / MPI_Scatter define: rank r's part is
// element_value(iteration, r, i), bit for bit; a rank without a result (gather's
// non-roots) must get nullptr.
#include "operation.hpp"

namespace hympi::bench {

namespace {

template <class T>
class RootedData final : public Data {
 public:
  RootedData(const Topology& topo, const Variant& variant, int root, bool gathers)
      : topo_(topo), options_(variant.options), root_(root), gathers_(gathers) {}

  PersistentCollective& bind(std::int64_t size) override {
    size_ = size;
    collective_.reset();  // the old windows go before the new ones are made
    collective_ = gathers_ ? Gather::create(topo_, root_, size, sizeof(T), options_)
                           : Scatter::create(topo_, root_, size, sizeof(T), options_);
    return *collective_;
  }

  std::size_t contribution_bytes() const override {
    if (gathers_) return static_cast<std::size_t>(size_) * sizeof(T);
    return topo_.rank() == root_ ? static_cast<std::size_t>(size_ * topo_.size()) * sizeof(T) : 0;
  }

  // Gather: this rank's part. Scatter (root): every rank's part, rank r's at r * size.
  void fill(void* out, int iteration) const override {
    T* values = static_cast<T*>(out);
    const int first = gathers_ ? topo_.rank() : 0;
    const int parts = gathers_ ? 1 : topo_.rank() == root_ ? topo_.size() : 0;  // scatter: the root only
    for (int p = 0; p < parts; ++p)
      for (std::int64_t i = 0; i < size_; ++i) values[p * size_ + i] = element_value<T>(iteration, first + p, i);
  }

  std::int64_t errors(const void* result, int iteration) const override {
    if (gathers_ && topo_.rank() != root_) return result != nullptr;  // only the root gets a result
    if (result == nullptr) return result_elements();                  // a rank that should hold a result has none
    const T* values = static_cast<const T*>(result);
    const int first = gathers_ ? 0 : topo_.rank();
    const int parts = gathers_ ? topo_.size() : 1;
    std::int64_t wrong = 0;
    for (int p = 0; p < parts; ++p)
      for (std::int64_t i = 0; i < size_; ++i)
        wrong += values[p * size_ + i] != element_value<T>(iteration, first + p, i);
    return wrong;
  }

  // What one rank reads: the whole gathered vector (the root's), one part (scatter).
  std::int64_t result_elements() const override { return gathers_ ? size_ * topo_.size() : size_; }

 private:
  const Topology& topo_;
  CollectiveOptions options_;
  int root_;
  bool gathers_;
  std::int64_t size_ = 0;
  std::unique_ptr<PersistentCollective> collective_;
};

OperationKind rooted_kind(const char* name, const char* title, bool gathers) {
  return {name, title,
          [gathers](const Topology& topo, const Variant& variant, const DataSetting& setting) {
            return with_element(setting.element, [&](auto zero) -> std::unique_ptr<Data> {
              return std::make_unique<RootedData<decltype(zero)>>(topo, variant, setting.root, gathers);
            });
          },
          false, true};
}

}  // namespace

OperationKind gather_kind() {
  return rooted_kind("gather", "Gather", true);
}
OperationKind scatter_kind() {
  return rooted_kind("scatter", "Scatter", false);
}

}  // namespace hympi::bench
