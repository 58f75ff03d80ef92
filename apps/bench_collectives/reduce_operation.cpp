// Allreduce and Reduce (to --root) of `size` elements of --type per rank,
// combined by --op (MPI_Allreduce / MPI_Reduce under pure). Every rank copies its
// source into slot() inside the timed step, as the gathers do. The collective's
// count is fixed at creation, so bind() creates a new one per size (untimed).
#include "hympi/reduce.hpp"
#include "operation.hpp"
#include "reduce_data.hpp"
#include "reduce_types.hpp"

namespace hympi::bench {

namespace {

template <class T>
class ReduceData final : public Data {
 public:
  ReduceData(const Topology& topo, const Variant& variant, const Reduction& reduction, int root)
      : topo_(topo), options_(variant.options), reduction_(reduction), root_(root) {}

  PersistentCollective& bind(std::int64_t size) override {
    size_ = size;
    const MPI_Datatype type = mpi_type_of(reduction_.type);
    const MPI_Op op = mpi_op_of(reduction_.op);
    collective_.reset();
    if (root_ < 0)
      collective_ = Allreduce::create(topo_, size, type, op, options_);
    else
      collective_ = Reduce::create(topo_, size, type, op, root_, options_);
    return *collective_;
  }

  std::size_t contribution_bytes() const override { return static_cast<std::size_t>(size_) * sizeof(T); }

  void fill(void* out, int iteration) const override {
    T* values = static_cast<T*>(out);
    for (std::int64_t i = 0; i < size_; ++i)
      values[i] = reduce_value<T>(reduction_.op, iteration, topo_.rank(), i, topo_.size());
  }

  std::int64_t errors(const void* result, int iteration) const override {
    if (root_ >= 0 && topo_.rank() != root_) return result != nullptr;  // only the root gets a result
    const T* values = static_cast<const T*>(result);
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < size_; ++i)
      wrong += values[i] != reduce_expected<T>(reduction_.op, iteration, i, topo_.size());
    return wrong;
  }

  std::int64_t result_elements() const override { return size_; }  // the length of the result (root only for reduce)

 private:
  const Topology& topo_;
  CollectiveOptions options_;
  Reduction reduction_;
  int root_;  // -1: allreduce
  std::int64_t size_ = 0;
  std::unique_ptr<PersistentCollective> collective_;
};

std::unique_ptr<Data> make(const Topology& topo, const Variant& variant, const Reduction& reduction, int root) {
  return with_type(reduction.type, [&](auto zero) -> std::unique_ptr<Data> {
    return std::make_unique<ReduceData<decltype(zero)>>(topo, variant, reduction, root);
  });
}

}  // namespace

OperationKind allreduce_kind(const Reduction& reduction) {
  return {"allreduce", "Allreduce",
          [reduction](const Topology& topo, const Variant& variant, const DataSetting&) {
            return make(topo, variant, reduction, -1);
          },
          true};
}

OperationKind reduce_kind(const Reduction& reduction) {
  return {"reduce", "Reduce",
          [reduction](const Topology& topo, const Variant& variant, const DataSetting& setting) {
            return make(topo, variant, reduction, setting.root);
          },
          true, true};
}

}  // namespace hympi::bench
