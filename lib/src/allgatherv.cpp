#include <cstring>
#include <limits>

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

// What a set of counts means for the exchange: computed and checked on every rank
// before the object changes, so set_counts() either succeeds everywhere or leaves
// every rank's object exactly as it was.
struct CountPlan {
  std::vector<std::int64_t> counts, displs;
  std::int64_t total = 0;
  std::size_t bytes = 0;  // total * elem_size
};

// Collective. Every check runs on every rank (also what only leaders use later)
// and all ranks agree before anything is allocated or sent. `policy_checks` adds
// the checks of one policy.
template <class PolicyChecks>
CountPlan plan_counts(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                      PolicyChecks&& policy_checks) {
  const int p = topo.size();
  topo.require_comm_alive("allgatherv set_counts()");
  checked_together(topo.comm(), [&] {
    require(static_cast<int>(counts.size()) == p, "allgatherv needs one non-negative count per rank (" +
                                                      std::to_string(p) + " ranks), got " +
                                                      std::to_string(counts.size()) + " counts");
    for (int r = 0; r < p; ++r)
      require(counts[r] >= 0, "allgatherv needs one non-negative count per rank: count of rank " + std::to_string(r) +
                                  " is negative (" + std::to_string(counts[r]) + ")");
  });
  // Counts must be identical everywhere: compared exactly with rank 0's.
  std::vector<std::int64_t> reference(counts);
  HYMPI_CHECK_MPI(MPI_Bcast(reference.data(), p, MPI_INT64_T, 0, topo.comm()));
  checked_together(topo.comm(), [&] {
    for (int r = 0; r < p; ++r)
      require(counts[r] == reference[r], "allgatherv counts differ between ranks: rank " + std::to_string(topo.rank()) +
                                             " has count " + std::to_string(counts[r]) + " for rank " +
                                             std::to_string(r) + ", rank 0 has " + std::to_string(reference[r]));
  });
  CountPlan plan;
  checked_together(topo.comm(), [&] {
    plan.displs = displacements(counts);
    plan.total = counts.empty() ? 0 : plan.displs.back() + counts.back();
    require(static_cast<std::uint64_t>(plan.total) <= std::numeric_limits<std::size_t>::max() / elem_size,
            "allgatherv total of " + std::to_string(plan.total) + " elements of " + std::to_string(elem_size) +
                " bytes overflows size_t",
            ErrorCode::out_of_memory);
    plan.bytes = static_cast<std::size_t>(plan.total) * elem_size;
    plan.counts = std::move(counts);
    policy_checks(plan);
  });
  return plan;
}

std::vector<int> int_counts(const std::vector<std::int64_t>& values, const char* what) {
  std::vector<int> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = detail::to_int_count(values[i], what);
  return out;
}

// How leaders exchange node pieces on the bridge, in MPI's int counts. Computed
// on every rank (all know the map), so an out-of-range count fails everywhere.
struct BridgePlan {
  std::vector<int> node_counts, node_displs;       // block placement: one piece per node
  std::vector<std::vector<int>> lengths, offsets;  // otherwise: indexed blocks per node
};

BridgePlan plan_bridge(const NodeRankMap& map, const std::vector<std::int64_t>& counts,
                       const std::vector<std::int64_t>& displs) {
  BridgePlan plan;
  const int nodes = map.num_nodes;
  plan.node_counts.assign(nodes, 0);
  plan.node_displs.assign(nodes, 0);
  if (map.contiguous) {
    for (int n = 0; n < nodes; ++n) {
      const auto& ranks = map.ranks_of_node[n];
      std::int64_t count = 0;
      for (int r : ranks) count += counts[r];
      plan.node_counts[n] = detail::to_int_count(count, "node count");
      plan.node_displs[n] = detail::to_int_count(displs[ranks.front()], "node displacement");
    }
    return plan;
  }
  plan.lengths.resize(nodes);
  plan.offsets.resize(nodes);
  for (int n = 0; n < nodes; ++n) {
    for (const Block& b : node_blocks(map, n, counts, displs)) {
      plan.lengths[n].push_back(detail::to_int_count(b.count, "block length"));
      plan.offsets[n].push_back(detail::to_int_count(b.displacement, "block displacement"));
    }
    plan.node_counts[n] = plan.lengths[n].empty() ? 0 : 1;
  }
  return plan;
}

class PureAllgatherv final : public Allgatherv {
 public:
  PureAllgatherv(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                 CollectiveOptions options)
      : topo_(topo), type_(detail::element_type(elem_size)) {
    elem_size_ = elem_size;
    options_ = options;
    topology_owner_ = topo.keep_alive();
    set_counts(std::move(counts));
  }
  void* slot() override { return data_.data() + displs_[topo_.rank()] * elem_size_; }
  const void* result() const override { return data_.data(); }
  void run() override {
    topo_.require_comm_alive("allgatherv run()");
    HYMPI_CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data_.data(), icounts_.data(), idispls_.data(),
                                   type_.get(), topo_.comm()));
  }
  void set_counts(std::vector<std::int64_t> counts) override {
    std::vector<int> icounts, idispls;
    std::vector<std::byte> data;
    CountPlan plan = plan_counts(topo_, std::move(counts), elem_size_, [&](const CountPlan& p) {
      icounts = int_counts(p.counts, "allgatherv count");
      idispls = int_counts(p.displs, "allgatherv displacement");
      data.resize(p.bytes);  // allocated inside the checks: out of memory fails on every rank
    });
    counts_ = std::move(plan.counts);
    displs_ = std::move(plan.displs);
    icounts_ = std::move(icounts);
    idispls_ = std::move(idispls);
    total_ = plan.total;
    data_ = std::move(data);
  }
  std::size_t bytes_per_node() const override { return total_ * elem_size_ * topo_.node_size(); }

 private:
  const Topology& topo_;
  detail::OwnedType type_;
  std::vector<std::byte> data_;
  std::vector<int> icounts_, idispls_;
  std::int64_t total_ = 0;
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
    topology_owner_ = topo.keep_alive();
    sync_ = NodeSync::create(options.sync, topo, &buffer_);
    set_counts(std::move(counts));
  }
  void* slot() override { return half(phase_) + displs_[topo_.rank()] * elem_size_; }
  const void* result() const override { return half(front_); }
  void run() override {
    topo_.require_comm_alive("allgatherv run()");
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
  // Strong guarantee: everything is checked and built aside (agreed on every
  // rank), the window grown without releasing the old one; only then committed.
  void set_counts(std::vector<std::int64_t> counts) override {
    BridgePlan bridge;
    std::size_t half_bytes = 0;
    CountPlan plan = plan_counts(topo_, std::move(counts), elem_size_, [&](const CountPlan& p) {
      half_bytes = align(p.bytes);
      require(half_bytes >= p.bytes && half_bytes <= std::numeric_limits<std::size_t>::max() / 2,
              "allgatherv result of " + std::to_string(p.bytes) + " bytes overflows size_t", ErrorCode::out_of_memory);
      bridge = plan_bridge(topo_.map(), p.counts, p.displs);
    });
    std::vector<detail::OwnedType> node_types =
        topo_.is_leader() ? indexed_types(bridge) : std::vector<detail::OwnedType>{};
    const bool grown = buffer_.reserve(2 * half_bytes);
    counts_ = std::move(plan.counts);
    displs_ = std::move(plan.displs);
    total_ = plan.total;
    half_bytes_ = half_bytes;
    node_counts_ = std::move(bridge.node_counts);
    node_displs_ = std::move(bridge.node_displs);
    node_types_ = std::move(node_types);
    if (grown) first_touch();
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
  std::vector<detail::OwnedType> indexed_types(const BridgePlan& bridge) const {
    std::vector<detail::OwnedType> types;
    for (std::size_t n = 0; n < bridge.lengths.size(); ++n) {
      MPI_Datatype type;
      HYMPI_CHECK_MPI(MPI_Type_indexed(static_cast<int>(bridge.lengths[n].size()), bridge.lengths[n].data(),
                                       bridge.offsets[n].data(), type_.get(), &type));
      HYMPI_CHECK_MPI(MPI_Type_commit(&type));
      types.emplace_back(type);
    }
    return types;
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
