// Private helper of the core: the one construction of G balanced groups of
// consecutive units (ranks, or whole nodes) behind the `groups` option of the
// grouped collectives (grouped/*.cpp) and the simulation probe
// (apps/smpi/probe/hier_bcast.cpp).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace hympi {

class Topology;

namespace detail {

// Unit i of n (0 <= i < n, 1 <= groups <= n) is in group i * groups / n: every
// group has floor(n / G) or ceil(n / G) consecutive units, so G need not divide
// n; with G | n it is i / (n / G). The thesis' grouping (and HSUMMA's along a
// grid line, where G divides the line).
inline int group_of(std::int64_t unit, std::int64_t units, int groups) {
  return static_cast<int>(unit * groups / units);
}
// The first unit of group g (the smallest i with group_of(i) == g).
inline std::int64_t group_begin(std::int64_t units, int groups, int g) {
  return (static_cast<std::int64_t>(g) * units + groups - 1) / groups;
}

// G groups of a communicator. Pure policy (by_nodes false): consecutive ranks.
// Hybrid (by_nodes true): whole nodes, never split, in node order; a node joins
// the group of its first rank's position in node-sorted rank order, so groups
// are balanced by ranks as far as whole nodes allow (regular nodes: node n in
// group n * G / nodes); groups left empty by large nodes are dropped. The
// requested G is capped at the units (ranks or nodes): `groups` is the
// effective G.
struct GroupPlan {
  int groups = 1;
  std::vector<int> group_of_rank;             // comm rank -> group
  std::vector<std::vector<int>> members;      // group -> its comm ranks, ascending
  int group_of_me = 0;
  // True when every group is a range of consecutive comm ranks (pure, or nodes
  // under block placement): the group's part of an allgather is then contiguous.
  bool contiguous = true;
};
// Local: needs only the topology's rank map (no communication).
GroupPlan plan_groups(const Topology& topo, int requested, bool by_nodes);

// The communicators of one grouped collective: this rank's group (ranks in
// ascending comm order) and, on leaders only, the leaders' communicator (rank =
// group index). leaders[g] is group g's leader (a comm rank of the group).
// Built from their members (comm_from_ranks), no MPI_Comm_split: a split costs
// minutes at thousands of SimGrid ranks. Frees both when destroyed.
class GroupComms {
 public:
  GroupComms(MPI_Comm comm, const GroupPlan& plan, std::vector<int> leaders);
  ~GroupComms();
  GroupComms(const GroupComms&) = delete;
  GroupComms& operator=(const GroupComms&) = delete;

  MPI_Comm group() const { return group_; }
  MPI_Comm leaders() const { return leaders_comm_; }  // MPI_COMM_NULL off the leaders
  bool is_leader() const { return leaders_comm_ != MPI_COMM_NULL; }
  int leader_in_group() const { return leader_in_group_; }  // the leader's rank in group()
  const std::vector<int>& leader_ranks() const { return leaders_; }

 private:
  MPI_Comm group_ = MPI_COMM_NULL, leaders_comm_ = MPI_COMM_NULL;
  std::vector<int> leaders_;
  int leader_in_group_ = 0;
};

// Every group's lowest rank; group `root_group` led by `root` instead (a
// broadcast's or reduce's root leads its own group, so its data needs no extra hop).
std::vector<int> group_leaders(const GroupPlan& plan, int root = -1);

}  // namespace detail
}  // namespace hympi

namespace hympi::detail {
// The topology of a group communicator for its inner collectives: under the
// hybrid policy its nodes (whole nodes of `topo`, the same layout), otherwise
// flat (no node discovery: pure needs none, and it costs minutes at thousands of
// simulated ranks).
const Topology& group_topology(const Topology& topo, MPI_Comm group, bool hybrid);
}  // namespace hympi::detail
