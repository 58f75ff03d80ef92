#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"

namespace hympi {

Policy parse_policy(const std::string& text) {
  if (text == "pure" || text == "ori" || text == "mpi") return Policy::pure;
  if (text == "hybrid" || text == "hy") return Policy::hybrid;
  throw Error(ErrorCode::invalid_argument, "hympi: policy must be 'pure' or 'hybrid', got '" + text + "'");
}

const char* to_string(Policy policy) {
  return policy == Policy::pure ? "pure" : "hybrid";
}

namespace {

// Every rank must pass the same counts: a mismatch would corrupt or hang the exchange.
void check_counts(const Topology& topo, const std::vector<std::int64_t>& counts) {
  bool ok = static_cast<int>(counts.size()) == topo.size();
  for (auto c : counts) ok = ok && c >= 0;
  require_all(topo.comm(), ok,
              "allgatherv needs one non-negative count per rank (" + std::to_string(topo.size()) + " ranks)");
  std::int64_t local[2] = {0, 0};
  for (std::size_t r = 0; r < counts.size(); ++r) {
    local[0] ^= counts[r] * static_cast<std::int64_t>(2 * r + 1);
    local[1] += counts[r];
  }
  std::int64_t lo[2], hi[2];
  HYMPI_CHECK_MPI(MPI_Allreduce(local, lo, 2, MPI_INT64_T, MPI_MIN, topo.comm()));
  HYMPI_CHECK_MPI(MPI_Allreduce(local, hi, 2, MPI_INT64_T, MPI_MAX, topo.comm()));
  require(lo[0] == hi[0] && lo[1] == hi[1], "allgatherv counts differ between ranks");
}

std::vector<int> int_counts(const std::vector<std::int64_t>& values, const char* what) {
  std::vector<int> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = detail::to_int_count(values[i], what);
  return out;
}

class PureAllgatherv final : public Allgatherv {
 public:
  PureAllgatherv(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                 CollectiveOptions options)
      : topo_(topo), type_(detail::element_type(elem_size)) {
    elem_size_ = elem_size;
    options_ = options;
    set_counts(std::move(counts));
  }
  void* slot() override { return data_.data() + displs_[topo_.rank()] * elem_size_; }
  const void* result() const override { return data_.data(); }
  void run() override {
    HYMPI_CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data_.data(), icounts_.data(), idispls_.data(),
                                   type_.get(), topo_.comm()));
  }
  void set_counts(std::vector<std::int64_t> counts) override {
    check_counts(topo_, counts);
    counts_ = std::move(counts);
    displs_ = displacements(counts_);
    icounts_ = int_counts(counts_, "allgatherv count");
    idispls_ = int_counts(displs_, "allgatherv displacement");
    total_ = std::accumulate(counts_.begin(), counts_.end(), std::int64_t{0});
    equal_counts_ = std::adjacent_find(counts_.begin(), counts_.end(), std::not_equal_to<>()) == counts_.end();
    data_.resize(total_ * elem_size_);
  }
  std::size_t bytes_per_node() const override { return total_ * elem_size_ * topo_.node_size(); }

 private:
  const Topology& topo_;
  detail::OwnedType type_;
  std::vector<std::byte> data_;
  std::vector<int> icounts_, idispls_;
  std::int64_t total_ = 0;
  bool equal_counts_ = false;
};

// One copy per node, double-buffered: call k uses half k % 2, so writing the next
// contribution never touches the result a neighbour may still be reading.
class HybridAllgatherv final : public Allgatherv {
 public:
  HybridAllgatherv(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                   CollectiveOptions options)
      : topo_(topo), type_(detail::element_type(elem_size)), buffer_(topo) {
    elem_size_ = elem_size;
    options_ = options;
    sync_ = NodeSync::create(options.sync, topo, &buffer_);
    set_counts(std::move(counts));
  }
  void* slot() override { return half(phase_) + displs_[topo_.rank()] * elem_size_; }
  const void* result() const override { return half(front_); }
  void run() override {
    if (topo_.num_nodes() == 1) {
      sync_->full();
    } else {
      sync_->arrive();
      if (topo_.is_leader()) exchange_on_bridge(half(phase_));
      sync_->release();
    }
    front_ = phase_;
    phase_ ^= 1;
  }
  void set_counts(std::vector<std::int64_t> counts) override {
    check_counts(topo_, counts);
    counts_ = std::move(counts);
    displs_ = displacements(counts_);
    total_ = std::accumulate(counts_.begin(), counts_.end(), std::int64_t{0});
    half_bytes_ = align(total_ * elem_size_);
    if (buffer_.reserve(2 * half_bytes_)) first_touch();
    plan_bridge();
  }
  std::size_t bytes_per_node() const override { return 2 * half_bytes_; }

 private:
  static std::size_t align(std::size_t bytes) { return (bytes + 63) / 64 * 64; }
  std::byte* half(int which) const { return buffer_.data() + which * half_bytes_; }

  // Each owner touches its own slots first (NUMA placement), then all wait.
  void first_touch() {
    for (int which = 0; which < 2; ++which)
      std::memset(half(which) + displs_[topo_.rank()] * elem_size_, 0, counts_[topo_.rank()] * elem_size_);
    sync_->full();
  }

  // Block placement: each node's data is one contiguous piece -> in-place Allgatherv.
  // Otherwise each node's pieces are described by an indexed type -> Alltoallw.
  void plan_bridge() {
    if (!topo_.is_leader()) return;
    const auto& map = topo_.map();
    const int nodes = map.num_nodes;
    node_types_.clear();
    node_counts_.assign(nodes, 0);
    node_displs_.assign(nodes, 0);
    if (map.contiguous) {
      for (int n = 0; n < nodes; ++n) {
        const auto& ranks = map.ranks_of_node[n];
        std::int64_t count = 0;
        for (int r : ranks) count += counts_[r];
        node_counts_[n] = detail::to_int_count(count, "node count");
        node_displs_[n] = detail::to_int_count(displs_[ranks.front()], "node displacement");
      }
      return;
    }
    for (int n = 0; n < nodes; ++n) {
      std::vector<int> lengths, offsets;
      for (const Block& b : node_blocks(map, n, counts_, displs_)) {
        lengths.push_back(detail::to_int_count(b.count, "block length"));
        offsets.push_back(detail::to_int_count(b.displacement, "block displacement"));
      }
      MPI_Datatype type;
      HYMPI_CHECK_MPI(
          MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(), offsets.data(), type_.get(), &type));
      HYMPI_CHECK_MPI(MPI_Type_commit(&type));
      node_types_.emplace_back(type);
      node_counts_[n] = lengths.empty() ? 0 : 1;
    }
  }

  void exchange_on_bridge(std::byte* data) {
    const int nodes = topo_.num_nodes();
    const int me = topo_.node_index();
    if (topo_.map().contiguous) {
      HYMPI_CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, node_counts_.data(), node_displs_.data(),
                                     type_.get(), topo_.bridge_comm()));
      return;
    }
    std::vector<int> send_counts(nodes), recv_counts(nodes), zero(nodes, 0);
    std::vector<MPI_Datatype> send_types(nodes), recv_types(nodes);
    for (int n = 0; n < nodes; ++n) {
      send_counts[n] = n == me ? 0 : node_counts_[me];
      recv_counts[n] = n == me ? 0 : node_counts_[n];
      send_types[n] = node_types_[me].get();
      recv_types[n] = node_types_[n].get();
    }
    HYMPI_CHECK_MPI(MPI_Alltoallw(data, send_counts.data(), zero.data(), send_types.data(), data, recv_counts.data(),
                                  zero.data(), recv_types.data(), topo_.bridge_comm()));
  }

  const Topology& topo_;
  detail::OwnedType type_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  std::int64_t total_ = 0;
  std::size_t half_bytes_ = 0;
  int phase_ = 0, front_ = 1;
  std::vector<detail::OwnedType> node_types_;
  std::vector<int> node_counts_, node_displs_;
};

}  // namespace

std::unique_ptr<Allgatherv> Allgatherv::create(const Topology& topo, std::vector<std::int64_t> counts,
                                               std::size_t elem_size, CollectiveOptions options) {
  require(elem_size > 0, "allgatherv element size must be > 0");
  if (options.policy == Policy::pure)
    return std::make_unique<PureAllgatherv>(topo, std::move(counts), elem_size, options);
  return std::make_unique<HybridAllgatherv>(topo, std::move(counts), elem_size, options);
}

std::unique_ptr<Allgatherv> Allgatherv::create_allgather(const Topology& topo, std::int64_t count_per_rank,
                                                         std::size_t elem_size, CollectiveOptions options) {
  return create(topo, std::vector<std::int64_t>(topo.size(), count_per_rank), elem_size, options);
}

}  // namespace hympi
