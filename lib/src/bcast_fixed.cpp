// Bcast::create_fixed: a broadcast with its root and count bound at creation (as
// MPI_Bcast_init), so that it has the one request model of the other collectives.
#include <memory>
#include <string>
#include <utility>

#include "bridges.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi {

namespace {

class FixedBcast final : public PersistentCollective {
 public:
  FixedBcast(std::unique_ptr<Bcast> impl, int root, std::int64_t count, bool is_root)
      : impl_(std::move(impl)), root_(root), count_(count), is_root_(is_root) {}
  void* slot() override { return is_root_ ? impl_->buffer() : nullptr; }
  const void* result() const override { return impl_->result(); }
  void run() override { impl_->run(root_, count_); }
  void start() override { impl_->start(root_, count_); }
  bool test() override { return impl_->test(); }
  void wait() override { impl_->wait(); }
  std::size_t bytes_per_node() const override { return impl_->bytes_per_node(); }

 private:
  std::unique_ptr<Bcast> impl_;
  int root_;
  std::int64_t count_;
  bool is_root_;
};

}  // namespace

std::unique_ptr<PersistentCollective> Bcast::create_fixed(const Topology& topo, int root, std::int64_t count,
                                                          std::size_t elem_size, CollectiveOptions options) {
  // Root and count agreed at creation: a mismatch is the same error on every rank
  // here, not a hang in a later start().
  detail::check_exchange_options(
      topo, options,
      [&] {
        require(root >= 0 && root < topo.size(),
                "bcast root " + std::to_string(root) + " is outside [0, " + std::to_string(topo.size()) + ")");
        require(count >= 0, "bcast count must be >= 0, got " + std::to_string(count));
      },
      {{"bcast root", root}, {"bcast count", count}});
  return std::make_unique<FixedBcast>(create(topo, count, elem_size, options), root, count, topo.rank() == root);
}

}  // namespace hympi
