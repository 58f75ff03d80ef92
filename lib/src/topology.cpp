#include "hympi/topology.hpp"

#include <map>
#include <string>
#include <vector>

#include "comm_from_ranks.hpp"
#include "hympi/error.hpp"
#include "intracomm.hpp"

namespace hympi {

// Attached to a communicator; deleted when the user frees it. Topologies that
// collectives still hold outlive it, marked so that they refuse to use comm().
struct TopologyCache {
  std::map<LayoutSpec, std::shared_ptr<Topology>> by_layout;
  std::shared_ptr<Topology> flat;
  TopologyCache() = default;
  TopologyCache(const TopologyCache&) = delete;
  TopologyCache& operator=(const TopologyCache&) = delete;
  ~TopologyCache() {
    for (auto& entry : by_layout)
      if (entry.second) entry.second->comm_freed_ = true;  // null when its construction threw
    if (flat) flat->comm_freed_ = true;
  }
};

namespace {

int delete_cache(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<TopologyCache*>(attribute);
  return MPI_SUCCESS;
}

int cache_keyval() {
  static int keyval = [] {
    int key = MPI_KEYVAL_INVALID;
    HYMPI_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cache, &key, nullptr));
    return key;
  }();
  return keyval;
}

// The emulated node a process belongs to: a property of the process (its world
// rank), so every communicator sees the same nodes.
int emulated_node_color(const LayoutSpec& layout) {
  if (!layout.emulated()) return 0;
  int world_rank = 0, world_size = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  return assign_emulated_nodes(world_size, layout)[world_rank];
}

// The node leaders (the lowest comm rank of each node), in node order.
std::vector<int> leaders_of(const NodeRankMap& map) {
  std::vector<int> leaders;
  leaders.reserve(map.ranks_of_node.size());
  for (const auto& ranks : map.ranks_of_node) leaders.push_back(ranks.front());
  return leaders;
}

}  // namespace

const Topology& Topology::of(MPI_Comm comm) {
  return of(comm, layout_from_env());
}

namespace {

TopologyCache& cache_of(MPI_Comm comm) {
  const int key = cache_keyval();
  TopologyCache* cache = nullptr;
  int found = 0;
  HYMPI_CHECK_MPI(MPI_Comm_get_attr(comm, key, &cache, &found));
  if (!found) {
    cache = new TopologyCache;
    HYMPI_CHECK_MPI(MPI_Comm_set_attr(comm, key, cache));
  }
  return *cache;
}

}  // namespace

const Topology& Topology::of(MPI_Comm comm, const LayoutSpec& layout) {
  require(comm != MPI_COMM_NULL, "Topology::of called with MPI_COMM_NULL");
  require_intracomm(comm, "Topology::of");
  auto& slot = cache_of(comm).by_layout[layout];
  if (!slot) slot = std::make_shared<Topology>(comm, layout);
  return *slot;
}

const Topology& Topology::flat(MPI_Comm comm) {
  require(comm != MPI_COMM_NULL, "Topology::flat called with MPI_COMM_NULL");
  require_intracomm(comm, "Topology::flat");
  auto& slot = cache_of(comm).flat;
  if (!slot) slot.reset(new Topology(comm, FlatTag{}));  // private constructor: no make_shared
  return *slot;
}

Topology::Topology(MPI_Comm comm, FlatTag) : comm_(comm), owns_comms_(false) {
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank_));
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size_));
  node_comm_ = MPI_COMM_SELF;
  host_comm_ = MPI_COMM_SELF;
  bridge_comm_ = comm;
  node_rank_ = 0;
  node_size_ = 1;
  std::vector<int> own_node(size_);
  for (int r = 0; r < size_; ++r) own_node[r] = r;
  map_ = make_node_rank_map(own_node);
}

Topology::Topology(MPI_Comm comm, const LayoutSpec& layout) : comm_(comm), layout_(layout) {
  require_intracomm(comm, "Topology");
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank_));
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size_));
  // Every rank must be able to compute its emulated node; a bad layout fails on all ranks alike.
  const int color = emulated_node_color(layout);

  HYMPI_CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host_comm_));
  // Split further by emulated node; key = comm rank so node rank 0 (the leader) is the lowest comm rank.
  HYMPI_CHECK_MPI(MPI_Comm_split(host_comm_, color, rank_, &node_comm_));
  HYMPI_CHECK_MPI(MPI_Comm_rank(node_comm_, &node_rank_));
  HYMPI_CHECK_MPI(MPI_Comm_size(node_comm_, &node_size_));

  int leader = rank_;
  HYMPI_CHECK_MPI(MPI_Bcast(&leader, 1, MPI_INT, 0, node_comm_));
  std::vector<int> leader_of_rank(size_);
  HYMPI_CHECK_MPI(MPI_Allgather(&leader, 1, MPI_INT, leader_of_rank.data(), 1, MPI_INT, comm));
  map_ = make_node_rank_map(leader_of_rank);

  // Leaders ordered by comm rank: bridge rank == node index. Every rank knows the
  // leaders from the map, so only they create the bridge (MPI_Comm_create_group); an
  // MPI_Comm_split over the whole communicator would gather P colors at one rank.
  if (node_rank_ == 0) bridge_comm_ = comm_from_ranks(comm, leaders_of(map_), /*tag=*/0);
}

void Topology::require_comm_alive(const char* what) const {
  if (!comm_freed_) return;  // every run() passes here: build the message only when it is needed
  require(false, std::string(what) +
                     ": its communicator was freed (MPI_Comm_free) while the object "
                     "still lives; destroy hympi objects before freeing their communicator");
}

Topology::~Topology() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || !owns_comms_) return;
  if (bridge_comm_ != MPI_COMM_NULL) MPI_Comm_free(&bridge_comm_);
  if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
  if (host_comm_ != MPI_COMM_NULL) MPI_Comm_free(&host_comm_);
}

}  // namespace hympi
