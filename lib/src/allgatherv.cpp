#include <algorithm>
#include <cstring>
#include <limits>

#include "agreement.hpp"
#include "bridges.hpp"
#include "creates.hpp"
#include "buffer_ring.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/topology.hpp"
#include "mpi_type.hpp"
#include "node_exchange.hpp"
#include "page_buffer.hpp"
#include "count_plan.hpp"
#include "grouped/grouped.hpp"
#include "requests.hpp"

namespace hympi {

namespace {

using detail::agree_counts;
using detail::CountPlan;
using detail::plan_counts;

std::vector<int> int_counts(const std::vector<std::int64_t>& values, const char* what) {
  std::vector<int> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = detail::to_int_count(values[i], what);
  return out;
}

// How the owners of one slice (bridges.hpp) exchange it on their bridge, in
// MPI's int counts: slice s of every node's data. Computed on every rank (all
// know the map), so an out-of-range count fails everywhere. Block placement: each
// node's slice is one contiguous piece -> in-place Allgatherv. Otherwise its
// blocks become an indexed type per node -> Alltoallw, sending from MPI_BOTTOM
// with absolute addresses (one type per half of the double buffer): a send buffer
// equal to the receive buffer is taken for MPI_IN_PLACE by some nonblocking
// implementations (Open MPI's libnbc). The arrays stay alive while a nonblocking
// exchange uses them.
struct SlicePlan {
  std::vector<int> node_counts, node_displs;       // block placement: one piece per node
  int equal_count = -1;  // block placement, equal pieces back to back: MPI_Allgather's count
  std::vector<std::vector<int>> lengths, offsets;  // otherwise: indexed blocks per node
  std::vector<detail::OwnedType> node_types;       // built on the slice's owners only
  detail::OwnedType send_type[2];                  // this node's piece at its absolute address, per half
  std::vector<int> send_counts, recv_counts, zero;
  std::vector<MPI_Datatype> send_types[2], recv_types;
};

// The common count when every rank's is the same, else -1. The counts are agreed
// (create, set_counts) before this runs, so every rank takes the same branch.
int equal_count(const std::vector<int>& counts) {
  if (counts.empty()) return -1;
  for (int c : counts)
    if (c != counts.front()) return -1;
  return counts.front();
}

SlicePlan plan_slice(const NodeRankMap& map, const std::vector<std::int64_t>& counts,
                     const std::vector<std::int64_t>& displs, int slice, int slices) {
  SlicePlan plan;
  const int nodes = map.num_nodes;
  plan.node_counts.assign(nodes, 0);
  plan.node_displs.assign(nodes, 0);
  plan.lengths.resize(nodes);
  plan.offsets.resize(nodes);
  for (int n = 0; n < nodes; ++n) {
    const std::vector<Block> whole = node_blocks(map, n, counts, displs);
    std::int64_t total = 0;
    for (const Block& b : whole) total += b.count;
    const detail::SliceRange range = detail::slice_range(total, slice, slices);
    for (const Block& b : sub_blocks(whole, range.first, range.last)) {
      plan.lengths[n].push_back(detail::to_int_count(b.count, "block length"));
      plan.offsets[n].push_back(detail::to_int_count(b.displacement, "block displacement"));
    }
    if (map.contiguous) {
      plan.node_counts[n] = plan.lengths[n].empty() ? 0 : plan.lengths[n].front();
      plan.node_displs[n] = plan.offsets[n].empty() ? 0 : plan.offsets[n].front();
    } else {
      plan.node_counts[n] = plan.lengths[n].empty() ? 0 : 1;
    }
  }
  // Equal pieces back to back (regular nodes): MPI_Allgather, as the pure policy calls
  // on equal counts (MPIs tune it apart from, often better than, MPI_Allgatherv).
  // Every rank knows the map and the agreed counts: all take the same branch.
  const int count = map.contiguous ? equal_count(plan.node_counts) : -1;
  bool back_to_back = count >= 0;
  for (int n = 0; n < nodes && back_to_back; ++n)
    back_to_back = static_cast<std::int64_t>(plan.node_displs[n]) ==
                   plan.node_displs[0] + static_cast<std::int64_t>(n) * count;
  if (back_to_back) plan.equal_count = count;
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
    apply_counts(std::move(counts), /*agreed=*/true);
  }
  void* slot() override { return data_.data() + displs_[topo_.rank()] * elem_size_; }
  const void* result() const override { return data_.data(); }
  // Equal counts: MPI_Allgather, the call a user makes (MPIs tune it apart from,
  // and often better than, MPI_Allgatherv). In place: the slot already sits at its
  // place in the result, so MPI copies nothing locally.
  void run() override {
    require_idle("run()");
    if (equal_count_ >= 0)
      HYMPI_CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data_.data(), equal_count_, type_.get(),
                                    topo_.comm()));
    else
      HYMPI_CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data_.data(), icounts_.data(),
                                     idispls_.data(), type_.get(), topo_.comm()));
  }
  void start() override {
    require_idle("start()");
    if (equal_count_ >= 0)
      HYMPI_CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data_.data(), equal_count_, type_.get(),
                                     topo_.comm(), request_.add()));
    else
      HYMPI_CHECK_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data_.data(), icounts_.data(),
                                      idispls_.data(), type_.get(), topo_.comm(), request_.add()));
  }
  bool test() override { return request_.test(); }
  void wait() override { request_.wait(); }
  void set_counts(std::vector<std::int64_t> counts) override {
    require_idle("set_counts()");
    apply_counts(std::move(counts), /*agreed=*/false);
  }
  void apply_counts(std::vector<std::int64_t> counts, bool agreed) {
    std::vector<int> icounts, idispls;
    detail::PageBuffer data;
    CountPlan plan = plan_counts(topo_, std::move(counts), elem_size_, agreed, [&](const CountPlan& p) {
      icounts = int_counts(p.counts, "allgatherv count");
      idispls = int_counts(p.displs, "allgatherv displacement");
      // Allocated inside the checks: out of memory fails on every rank. Never empty:
      // a zero-length result is still a valid pointer (Fortran: a zero-size array).
      data = detail::PageBuffer(p.bytes);
    });
    counts_ = std::move(plan.counts);
    displs_ = std::move(plan.displs);
    icounts_ = std::move(icounts);
    idispls_ = std::move(idispls);
    equal_count_ = equal_count(icounts_);
    total_ = plan.total;
    data_ = std::move(data);
  }
  std::size_t bytes_per_node() const override { return total_ * elem_size_ * topo_.node_size(); }

 private:
  void require_idle(const char* call) const {
    topo_.require_comm_alive("allgatherv");
    detail::require_idle(!request_.empty(), "allgatherv", call);
  }

  const Topology& topo_;
  detail::OwnedType type_;
  detail::PageBuffer data_;
  std::vector<int> icounts_, idispls_;
  int equal_count_ = -1;  // every rank's count when all are equal, else -1
  std::int64_t total_ = 0;
  detail::Requests request_;  // last: completes before the buffers go
};

// A saturating sum of the counts before they are checked: only a size hint.
std::uint64_t bytes_hint(const std::vector<std::int64_t>& counts, std::size_t elem_size) {
  std::uint64_t total = 0;
  for (std::int64_t c : counts) total += c > 0 ? static_cast<std::uint64_t>(c) : 0;
  return total > std::numeric_limits<std::uint64_t>::max() / elem_size ? std::numeric_limits<std::uint64_t>::max()
                                                                       : total * elem_size;
}

// One copy per node, double-buffered: call k uses half k % 2, so writing the next
// contribution never touches the result a neighbour may still be reading. With one
// leader, run() is arrive -> leader exchanges -> release; with several, and for
// start/test/wait, the node exchange (node_exchange.hpp) moves the slices.
class HybridAllgatherv final : public Allgatherv {
 public:
  HybridAllgatherv(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                   CollectiveOptions options)
      : topo_(topo),
        type_(detail::element_type(elem_size)),
        buffer_(topo),
        bridges_(topo, detail::effective_leaders(topo, options.leaders, bytes_hint(counts, elem_size))) {
    elem_size_ = elem_size;
    options_ = options;
    topology_owner_ = topo.keep_alive();
    sync_ = NodeSync::create(options.sync, topo, &buffer_);
    exchange_ = std::make_unique<detail::NodeExchange>(topo, *sync_, bridges_, options.progress_thread);
    apply_counts(std::move(counts), /*agreed=*/true);
  }
  void* slot() override { return half(ring_.phase()) + displs_[topo_.rank()] * elem_size_; }
  const void* result() const override { return half(ring_.front()); }
  void run() override {
    require_idle("run()");
    if (bridges_.slices() > 1) {
      exchange_->run([this](int s, MPI_Comm bridge, detail::Requests& requests) {
        post_slice(ring_.phase(), s, bridge, requests.add());
      });
      land();
      return;
    }
    if (topo_.num_nodes() == 1) {
      sync_->full();
    } else {
      sync_->arrive();
      detail::ProgressEngine::poke();  // what else flies posts what it can before this rank blocks in MPI
      if (topo_.is_leader()) post_slice(ring_.phase(), 0, topo_.bridge_comm(), nullptr);
      sync_->release();
    }
    land();
  }
  void start() override {
    require_idle("start()");
    const int which = ring_.phase();
    exchange_->start([this, which](int s, MPI_Comm bridge,
                                   detail::Requests& requests) { post_slice(which, s, bridge, requests.add()); },
                     {}, [this] { land(); });
  }
  bool test() override { return exchange_->test(); }
  void wait() override { exchange_->wait(); }
  // Strong guarantee: everything is checked and built aside (agreed on every
  // rank), the window grown without releasing the old one; only then committed.
  void set_counts(std::vector<std::int64_t> counts) override {
    require_idle("set_counts()");
    apply_counts(std::move(counts), /*agreed=*/false);
  }
  void apply_counts(std::vector<std::int64_t> counts, bool agreed) {
    std::vector<SlicePlan> slices;
    std::size_t half_bytes = 0;
    CountPlan plan = plan_counts(topo_, std::move(counts), elem_size_, agreed, [&](const CountPlan& p) {
      half_bytes = align(p.bytes);
      require(half_bytes >= p.bytes && half_bytes <= std::numeric_limits<std::size_t>::max() / 2,
              "allgatherv result of " + std::to_string(p.bytes) + " bytes overflows size_t", ErrorCode::out_of_memory);
      for (int s = 0; s < bridges_.slices(); ++s)
        slices.push_back(plan_slice(topo_.map(), p.counts, p.displs, s, bridges_.slices()));
    });
    const bool grown = buffer_.reserve(std::max<std::size_t>(2 * half_bytes, 64));  // never a null result
    counts_ = std::move(plan.counts);
    displs_ = std::move(plan.displs);
    total_ = plan.total;
    half_bytes_ = half_bytes;
    slices_ = std::move(slices);
    if (!topo_.map().contiguous)
      for (int s : bridges_.owned()) build_alltoallw(slices_[s]);
    if (grown) first_touch();
  }
  std::size_t bytes_per_node() const override { return 2 * half_bytes_; }

 private:
  static std::size_t align(std::size_t bytes) { return (bytes + 63) / 64 * 64; }
  std::byte* half(int which) const { return buffer_.data() + which * half_bytes_; }

  void require_idle(const char* call) const {
    topo_.require_comm_alive("allgatherv");
    detail::require_idle(exchange_->in_flight(), "allgatherv", call);
  }
  void land() { ring_.land(); }

  // Each owner touches its own slots first (NUMA placement), then all wait.
  void first_touch() {
    for (int which = 0; which < 2; ++which)
      std::memset(half(which) + displs_[topo_.rank()] * elem_size_, 0, counts_[topo_.rank()] * elem_size_);
    sync_->full();
  }

  // The Alltoallw arguments of one slice: every node's piece as an indexed type,
  // this node's also at its absolute addresses in either half.
  void build_alltoallw(SlicePlan& plan) const {
    const int nodes = topo_.num_nodes(), me = topo_.node_index();
    auto commit = [](MPI_Datatype type) {
      HYMPI_CHECK_MPI(MPI_Type_commit(&type));
      return detail::OwnedType(type);
    };
    for (int n = 0; n < nodes; ++n) {
      MPI_Datatype type;
      HYMPI_CHECK_MPI(MPI_Type_indexed(static_cast<int>(plan.lengths[n].size()), plan.lengths[n].data(),
                                       plan.offsets[n].data(), type_.get(), &type));
      plan.node_types.push_back(commit(type));
    }
    for (int which = 0; which < 2; ++which) {
      MPI_Aint base = 0;
      HYMPI_CHECK_MPI(MPI_Get_address(half(which), &base));
      std::vector<MPI_Aint> addresses;
      for (int offset : plan.offsets[me])
        addresses.push_back(base + static_cast<MPI_Aint>(offset) * static_cast<MPI_Aint>(elem_size_));
      MPI_Datatype type;
      HYMPI_CHECK_MPI(MPI_Type_create_hindexed(static_cast<int>(addresses.size()), plan.lengths[me].data(),
                                               addresses.data(), type_.get(), &type));
      plan.send_type[which] = commit(type);
      plan.send_types[which].assign(nodes, plan.send_type[which].get());
    }
    plan.zero.assign(nodes, 0);
    for (int n = 0; n < nodes; ++n) {
      plan.send_counts.push_back(n == me ? 0 : plan.node_counts[me]);
      plan.recv_counts.push_back(n == me ? 0 : plan.node_counts[n]);
      plan.recv_types.push_back(plan.node_types[n].get());
    }
  }

  // Slice s of half `which` on its bridge: blocking without a request, nonblocking with one.
  void post_slice(int which, int s, MPI_Comm bridge, MPI_Request* request) {
    std::byte* data = half(which);
    SlicePlan& p = slices_[s];
    if (p.equal_count >= 0) {
      std::byte* first = data + static_cast<std::size_t>(p.node_displs[0]) * elem_size_;
      if (request)
        HYMPI_CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, first, p.equal_count, type_.get(), bridge,
                                       request));
      else
        HYMPI_CHECK_MPI(
            MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, first, p.equal_count, type_.get(), bridge));
      return;
    }
    if (topo_.map().contiguous) {
      if (request)
        HYMPI_CHECK_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, p.node_counts.data(),
                                        p.node_displs.data(), type_.get(), bridge, request));
      else
        HYMPI_CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, p.node_counts.data(),
                                       p.node_displs.data(), type_.get(), bridge));
      return;
    }
    if (request)
      HYMPI_CHECK_MPI(MPI_Ialltoallw(MPI_BOTTOM, p.send_counts.data(), p.zero.data(), p.send_types[which].data(), data,
                                     p.recv_counts.data(), p.zero.data(), p.recv_types.data(), bridge, request));
    else
      HYMPI_CHECK_MPI(MPI_Alltoallw(MPI_BOTTOM, p.send_counts.data(), p.zero.data(), p.send_types[which].data(), data,
                                    p.recv_counts.data(), p.zero.data(), p.recv_types.data(), bridge));
  }

  const Topology& topo_;
  detail::OwnedType type_;
  NodeBuffer buffer_;
  std::unique_ptr<NodeSync> sync_;
  detail::Bridges bridges_;
  std::int64_t total_ = 0;
  std::size_t half_bytes_ = 0;
  detail::BufferRing ring_{2};
  std::vector<SlicePlan> slices_;
  std::unique_ptr<detail::NodeExchange> exchange_;  // last: an exchange in flight completes first
};

}  // namespace

std::unique_ptr<Allgatherv> detail::create_allgatherv(const Topology& topo, std::vector<std::int64_t> counts,
                                                     std::size_t elem_size, const CollectiveOptions& options,
                                                     Agreement& agreement) {
  agreement.options(options);
  agreement.check([&] { require(elem_size > 0, "allgatherv element size must be > 0"); });
  agreement.same("allgatherv element size", static_cast<std::int64_t>(elem_size));
  agree_counts(agreement, topo, counts);
  agreement.run(topo.comm());  // the one round: nothing collective before it
  if (options.groups != 1) {  // agreed: every rank takes the same path
    const auto counted = plan_counts(topo, counts, elem_size, /*agreed_counts=*/true, [](const CountPlan&) {});
    if (!detail::is_flat(topo, options, detail::grouped_plan(topo, options, static_cast<std::int64_t>(counted.bytes))))
      return detail::make_grouped_allgatherv(topo, std::move(counts), elem_size, options);
  }
  if (options.policy == Policy::pure)
    return std::make_unique<PureAllgatherv>(topo, std::move(counts), elem_size, options);
  return std::make_unique<HybridAllgatherv>(topo, std::move(counts), elem_size, options);
}

std::unique_ptr<Allgatherv> Allgatherv::create(const Topology& topo, std::vector<std::int64_t> counts,
                                               std::size_t elem_size, CollectiveOptions options) {
  detail::Agreement agreement;
  return detail::create_allgatherv(topo, std::move(counts), elem_size, options, agreement);
}

std::unique_ptr<Allgatherv> Allgatherv::create_allgather(const Topology& topo, std::int64_t count_per_rank,
                                                         std::size_t elem_size, CollectiveOptions options) {
  return create(topo, std::vector<std::int64_t>(topo.size(), count_per_rank), elem_size, options);
}

}  // namespace hympi
