// One group per member list (SMPI builds only). SimGrid gives every rank its own copy of a
// group made by MPI_Group_incl, and a copy's pid-to-rank table is as long as its largest
// member's pid: a communicator built from ranks (lib/src/comm_from_ranks.hpp) costs each
// member about 4 bytes x world size. The drop-in pdgemm_'s grids came to 39 bytes x p^2 of
// host memory at 2048 ranks (12 GB at 16384; issue 51). A group never changes once made,
// SMPI's ranks share one heap, and MPI_Comm_create keeps a reference to the group it is
// given, so every rank asking for the same members gets the same group: the first one
// made, kept for the rest of the run (one per distinct member list: the table only grows);
// a rank alone gets its MPI_COMM_SELF's group. MPI_Group_free leaves such groups to this
// table. Nothing simulated changes: making a group is local. Assumes what SMPI runs today:
// one simulation per process and one host thread for all ranks (contexts/nthreads:1).
#include "sim_groups.hpp"

#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

namespace hympi_sim {
namespace {

struct SharedGroups {
  std::map<std::vector<int>, MPI_Group> by_members;  // world ranks, in group order
  std::set<MPI_Group> kept;
};

SharedGroups& shared() {
  static SharedGroups table;  // the layer is one library for every rank: one table per run
  return table;
}

}  // namespace

MPI_Group world_group() {
  static MPI_Group world = MPI_GROUP_NULL;
  if (world == MPI_GROUP_NULL) PMPI_Comm_group(MPI_COMM_WORLD, &world);
  return world;
}

std::vector<int> world_members(MPI_Group group) {
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> index(static_cast<std::size_t>(size)), members(index.size());
  std::iota(index.begin(), index.end(), 0);
  PMPI_Group_translate_ranks(group, size, index.data(), world_group(), members.data());
  return members;
}

bool is_shared_group(MPI_Group group) { return shared().kept.count(group) != 0; }

const std::vector<int>& shared_ranks(std::vector<int> ranks) {
  static std::set<std::vector<int>> lists;
  return *lists.insert(std::move(ranks)).first;
}

}  // namespace hympi_sim

extern "C" int hympi_sim_group_incl(MPI_Group group, int n, const int* ranks, MPI_Group* out) {
  auto& table = hympi_sim::shared();
  // The members as world ranks, once: the table's key, and the new group's members when
  // SimGrid accepts the list (it refuses any rank the translation could not place).
  std::vector<int> members(static_cast<std::size_t>(n > 0 ? n : 0));
  const bool translated = n > 0 && group != MPI_GROUP_NULL && ranks && out &&
                          PMPI_Group_translate_ranks(group, n, ranks, hympi_sim::world_group(), members.data()) ==
                              MPI_SUCCESS;
  if (translated && n > 1) {  // a list made before: no new group at all
    const auto it = table.by_members.find(members);  // a key is a list SimGrid accepted: valid ranks
    if (it != table.by_members.end()) {
      *out = it->second;
      return MPI_SUCCESS;
    }
  }
  const int rc = PMPI_Group_incl(group, n, ranks, out);  // SimGrid's checks and errors for the rest
  if (rc != MPI_SUCCESS || !translated || *out == MPI_GROUP_EMPTY || *out == MPI_GROUP_NULL) return rc;
  if (n == 1) {  // distinct per rank: the caller alone is its MPI_COMM_SELF's group, SMPI's own
    int me = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (members[0] != me) return rc;
    MPI_Group self = MPI_GROUP_NULL;
    // This reference is never given back, on purpose: SMPI frees the rank's MPI_COMM_SELF at its
    // finalize, and the group must outlive it, as the table's pointer to it does (never reused).
    PMPI_Comm_group(MPI_COMM_SELF, &self);
    table.kept.insert(self);
    PMPI_Group_free(out);
    *out = self;
    return rc;
  }
  auto [it, added] = table.by_members.try_emplace(std::move(members), *out);
  if (added) {
    table.kept.insert(*out);
  } else {
    PMPI_Group_free(out);
    *out = it->second;
  }
  return rc;
}

extern "C" int hympi_sim_group_free(MPI_Group* group) {
  if (group && hympi_sim::is_shared_group(*group)) {
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Group_free(group);
}

// For a preloaded layer (an unprivatized program, sim_entry_points.cpp says why).
extern "C" int MPI_Group_incl(MPI_Group group, int n, const int* ranks, MPI_Group* out) {
  return hympi_sim_group_incl(group, n, ranks, out);
}
extern "C" int MPI_Group_free(MPI_Group* group) { return hympi_sim_group_free(group); }
