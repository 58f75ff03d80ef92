// Allreduce and Reduce (to --root) of `size` elements of --type per rank,
// combined by --op (MPI_Allreduce / MPI_Reduce under pure). Every rank copies its
// source into slot() inside the timed step, as the gathers do. The collective's
// count is fixed at creation, so resize() creates a new one per size (untimed).
#include <cstring>

#include "hympi/reduce.hpp"
#include "operation.hpp"
#include "reduce_data.hpp"
#include "reduce_types.hpp"

namespace hympi::bench {

namespace {

template <class T>
class ReduceOperation : public Operation {
 public:
  ReduceOperation(const Topology& topo, const Variant& variant, const Reduction& reduction, int root)
      : topo_(topo), options_(variant.options), reduction_(reduction), root_(root) {}

  void resize(std::int64_t size) override {
    size_ = size;
    const MPI_Datatype type = mpi_type_of(reduction_.type);
    const MPI_Op op = mpi_op_of(reduction_.op);
    all_.reset();
    one_.reset();
    if (root_ < 0)
      all_ = Allreduce::create(topo_, size, type, op, options_);
    else
      one_ = Reduce::create(topo_, size, type, op, root_, options_);
    source_.resize(static_cast<std::size_t>(size));
    prepare(0);
  }

  void prepare(int iteration) override {
    for (std::size_t i = 0; i < source_.size(); ++i)
      source_[i] = reduce_value<T>(reduction_.op, iteration, topo_.rank(), static_cast<std::int64_t>(i), topo_.size());
  }

  void write() override { std::memcpy(all_ ? all_->slot() : one_->slot(), source_.data(), source_.size() * sizeof(T)); }
  void exchange() override { all_ ? all_->run() : one_->run(); }

  std::int64_t errors(int iteration) const override {
    const T* result = all_ ? all_->template result_as<T>() : one_->template result_as<T>();
    if (!all_ && topo_.rank() != root_) return result != nullptr;  // only the root gets a result
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < size_; ++i)
      wrong += result[i] != reduce_expected<T>(reduction_.op, iteration, i, topo_.size());
    return wrong;
  }

  std::int64_t result_doubles() const override { return size_; }  // the length of the result (root only for reduce)
  std::size_t bytes_per_node() const override { return all_ ? all_->bytes_per_node() : one_->bytes_per_node(); }

 private:
  const Topology& topo_;
  CollectiveOptions options_;
  Reduction reduction_;
  int root_;  // -1: allreduce
  std::int64_t size_ = 0;
  std::unique_ptr<Allreduce> all_;
  std::unique_ptr<Reduce> one_;
  std::vector<T> source_;
};

std::unique_ptr<Operation> make(const Topology& topo, const Variant& variant, const Reduction& reduction, int root) {
  return with_type(reduction.type, [&](auto zero) -> std::unique_ptr<Operation> {
    return std::make_unique<ReduceOperation<decltype(zero)>>(topo, variant, reduction, root);
  });
}

}  // namespace

OperationKind allreduce_kind(const Reduction& reduction) {
  return {"allreduce", "Allreduce",
          [reduction](const Topology& topo, const Variant& variant, int, std::int64_t) {
            return make(topo, variant, reduction, -1);
          },
          true};
}

OperationKind reduce_kind(const Reduction& reduction) {
  return {"reduce", "Reduce",
          [reduction](const Topology& topo, const Variant& variant, int root, std::int64_t) {
            return make(topo, variant, reduction, root);
          },
          true};
}

}  // namespace hympi::bench
