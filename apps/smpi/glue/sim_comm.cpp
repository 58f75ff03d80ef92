// The simulated MPI layer's per-communicator cache (sim_comm.hpp).
#include "sim_comm.hpp"

#include "sim_state.hpp"

#include <simgrid/actor.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hympi_sim {
namespace {

struct CommInfo {
  MPI_Group group = MPI_GROUP_NULL;
  std::vector<int> world;  // -1 until looked up
  std::vector<sg_host_t> hosts;
  std::string members;  // the world ranks, comma-separated, once a key asked for them
  std::uint64_t merged_bcasts = 0;
};

int free_info(MPI_Comm, int, void* value, void*) {
  auto* info = static_cast<CommInfo*>(value);
  if (info->group != MPI_GROUP_NULL) MPI_Group_free(&info->group);
  delete info;
  return MPI_SUCCESS;
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
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_group(comm, &info->group);
  info->world.assign(size, -1);
  info->hosts.assign(size, nullptr);
  MPI_Comm_set_attr(comm, keyval, info);
  return *info;
}

}  // namespace

int world_rank_of(MPI_Comm comm, int rank) {
  CommInfo& info = info_of(comm);
  int& w = info.world.at(rank);
  if (w < 0) {
    static MPI_Group world = MPI_GROUP_NULL;
    if (world == MPI_GROUP_NULL) MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(info.group, 1, &rank, world, &w);
  }
  return w;
}

sg_host_t host_of(MPI_Comm comm, int rank) {
  CommInfo& info = info_of(comm);
  sg_host_t& h = info.hosts.at(rank);
  if (h == nullptr) h = state::host_of(world_rank_of(comm, rank));
  return h;
}

std::string next_bcast_key(MPI_Comm comm, int root) {
  CommInfo& info = info_of(comm);
  if (info.members.empty()) {
    for (int r = 0; r < static_cast<int>(info.world.size()); ++r) info.members += std::to_string(world_rank_of(comm, r)) + ",";
  }
  return info.members + "/" + std::to_string(root) + "/" + std::to_string(info.merged_bcasts++);
}

}  // namespace hympi_sim
