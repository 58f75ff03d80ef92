#include <cstring>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"

namespace hympi {

namespace {

// On the hot path: build the messages only when something is wrong.
void check_call(const Topology& topo, int root, std::int64_t count, std::int64_t capacity) {
  if (root >= 0 && root < topo.size() && count >= 0 && count <= capacity) return;
  require(root >= 0 && root < topo.size(),
          "bcast root " + std::to_string(root) + " is outside [0, " + std::to_string(topo.size()) + ")");
  require(count >= 0 && count <= capacity,
          "bcast count " + std::to_string(count) + " is outside [0, capacity " + std::to_string(capacity) + "]");
}

class PureBcast final : public Bcast {
 public:
  PureBcast(const Topology& topo, std::int64_t capacity, std::size_t elem_size, CollectiveOptions options)
      : topo_(topo), type_(detail::element_type(elem_size)), data_(capacity * elem_size) {
    capacity_ = capacity;
    elem_size_ = elem_size;
    options_ = options;
  }
  void* buffer() override { return data_.data(); }
  const void* result() const override { return data_.data(); }
  void run(int root, std::int64_t count) override {
    check_call(topo_, root, count, capacity_);
    HYMPI_CHECK_MPI(
        MPI_Bcast(data_.data(), detail::to_int_count(count, "bcast count"), type_.get(), root, topo_.comm()));
  }
  std::size_t bytes_per_node() const override { return data_.size() * topo_.node_size(); }

 private:
  const Topology& topo_;
  detail::OwnedType type_;
  std::vector<std::byte> data_;
};

// One copy per node, double-buffered like the hybrid allgatherv. The root (leader
// or not) writes into the node copy; its leader forwards it on the bridge.
class HybridBcast final : public Bcast {
 public:
  HybridBcast(const Topology& topo, std::int64_t capacity, std::size_t elem_size, CollectiveOptions options)
      : topo_(topo),
        type_(detail::element_type(elem_size)),
        half_bytes_((capacity * elem_size + 63) / 64 * 64),
        buffer_(topo, 2 * half_bytes_) {
    capacity_ = capacity;
    elem_size_ = elem_size;
    options_ = options;
    sync_ = NodeSync::create(options.sync, topo, &buffer_);
    if (topo.is_leader()) std::memset(buffer_.data(), 0, buffer_.capacity());
    sync_->full();
  }
  void* buffer() override { return half(phase_); }
  const void* result() const override { return half(front_); }
  void run(int root, std::int64_t count) override {
    check_call(topo_, root, count, capacity_);
    if (topo_.num_nodes() == 1) {
      sync_->full();
    } else {
      sync_->arrive();
      if (topo_.is_leader())
        HYMPI_CHECK_MPI(MPI_Bcast(half(phase_), detail::to_int_count(count, "bcast count"), type_.get(),
                                  topo_.node_of(root), topo_.bridge_comm()));
      sync_->release();
    }
    front_ = phase_;
    phase_ ^= 1;
  }
  std::size_t bytes_per_node() const override { return buffer_.capacity(); }

 private:
  std::byte* half(int which) const { return buffer_.data() + which * half_bytes_; }

  const Topology& topo_;
  detail::OwnedType type_;
  std::size_t half_bytes_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  int phase_ = 0, front_ = 1;
};

}  // namespace

std::unique_ptr<Bcast> Bcast::create(const Topology& topo, std::int64_t capacity, std::size_t elem_size,
                                     CollectiveOptions options) {
  require_all(topo.comm(), capacity >= 0 && elem_size > 0,
              "bcast capacity must be >= 0 and element size > 0 (got capacity " + std::to_string(capacity) + ")");
  if (options.policy == Policy::pure) return std::make_unique<PureBcast>(topo, capacity, elem_size, options);
  return std::make_unique<HybridBcast>(topo, capacity, elem_size, options);
}

}  // namespace hympi
