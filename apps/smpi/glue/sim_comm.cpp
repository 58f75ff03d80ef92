// The simulated MPI layer's per-communicator cache (sim_comm.hpp).
#include "sim_comm.hpp"

#include "sim_groups.hpp"
#include "sim_state.hpp"

#include <simgrid/actor.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hympi_sim {
namespace {

// What every rank of a communicator knows alike, shared by all communicators of one member
// list (the world, its duplicates and splits of it): per rank, a world-sized communicator's
// tables came to 12 bytes x p each, 12 GB at 16384 ranks (sim_groups.cpp, issue 51).
struct Members {
  const std::vector<int>* world = nullptr;  // the world rank of each rank: the table's key
  std::vector<sg_host_t> hosts;  // nullptr until looked up
  std::string key;  // the world ranks, comma-separated, once a broadcast key asked for them
};

struct CommInfo {
  Members* members = nullptr;
  std::uint64_t merged_bcasts = 0;  // this rank's count on this communicator
};

int free_info(MPI_Comm, int, void* value, void*) {
  delete static_cast<CommInfo*>(value);
  return MPI_SUCCESS;
}

Members& members_of(MPI_Group group) {
  static std::map<std::vector<int>, Members> table;  // one library for every rank: one table per run
  auto [it, added] = table.try_emplace(world_members(group));
  if (added) {
    it->second.world = &it->first;  // map keys do not move
    it->second.hosts.assign(it->first.size(), nullptr);
  }
  return it->second;
}

}  // namespace

int rank_keyval(MPI_Comm_delete_attr_function* del) {
  static std::map<std::pair<aid_t, MPI_Comm_delete_attr_function*>, int> table;
  auto [it, added] = table.try_emplace({sg_actor_self_get_pid(), del}, MPI_KEYVAL_INVALID);
  if (added) PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &it->second, nullptr);
  return it->second;
}

namespace {

CommInfo& info_of(MPI_Comm comm) {
  const int keyval = rank_keyval(free_info);
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) return *static_cast<CommInfo*>(value);
  auto* info = new CommInfo;
  MPI_Group group = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  info->members = &members_of(group);
  PMPI_Group_free(&group);
  MPI_Comm_set_attr(comm, keyval, info);
  return *info;
}

}  // namespace

int world_rank_of(MPI_Comm comm, int rank) { return info_of(comm).members->world->at(rank); }

sg_host_t host_of(MPI_Comm comm, int rank) {
  Members& m = *info_of(comm).members;
  sg_host_t& h = m.hosts.at(rank);
  if (h == nullptr) h = state::host_of(m.world->at(rank));
  return h;
}

std::string next_bcast_key(MPI_Comm comm, int root) {
  CommInfo& info = info_of(comm);
  std::string& key = info.members->key;
  if (key.empty())
    for (const int w : *info.members->world) key += std::to_string(w) + ",";
  return key + "/" + std::to_string(root) + "/" + std::to_string(info.merged_bcasts++);
}

}  // namespace hympi_sim
