// Bcast of `size` doubles from --root (any rank, leader or not). The root copies
// its source into buffer() inside the timed step, as a producer would.
#include <cstring>

#include "operation.hpp"

namespace hympi::bench {

namespace {

class BcastOperation : public Operation {
 public:
  BcastOperation(const Topology& topo, const Variant& variant, int root, std::int64_t max_size)
      : topo_(topo), root_(root), collective_(Bcast::create(topo, max_size, sizeof(double), variant.options)) {}

  void resize(std::int64_t size) override {
    size_ = size;
    if (topo_.rank() == root_) source_.resize(static_cast<std::size_t>(size));
    prepare(0);
  }

  void prepare(int iteration) override {
    for (std::size_t i = 0; i < source_.size(); ++i) source_[i] = pattern(iteration, root_, i);
  }

  void write() override {
    if (topo_.rank() == root_) std::memcpy(collective_->buffer(), source_.data(), source_.size() * sizeof(double));
  }
  void exchange() override { collective_->run(root_, size_); }

  std::int64_t errors(int iteration) const override {
    const double* result = collective_->result_as<double>();
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < size_; ++i) wrong += result[i] != pattern(iteration, root_, i);
    return wrong;
  }

  std::int64_t result_doubles() const override { return size_; }
  std::size_t bytes_per_node() const override { return collective_->bytes_per_node(); }

 private:
  const Topology& topo_;
  int root_;
  std::int64_t size_ = 0;
  std::unique_ptr<Bcast> collective_;
  std::vector<double> source_;
};

std::unique_ptr<Operation> make(const Topology& topo, const Variant& variant, int root, std::int64_t max_size) {
  return std::make_unique<BcastOperation>(topo, variant, root, max_size);
}

}  // namespace

OperationKind bcast_kind() {
  return {"bcast", "Bcast", make};
}

}  // namespace hympi::bench
