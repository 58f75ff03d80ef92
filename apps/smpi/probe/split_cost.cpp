// The group-creation cost of the thesis' Figs 3.6, 3.7 and 3.16 under SMPI (simulated time):
// for each G, the two communicators of a G-group hierarchy (G balanced groups of consecutive
// ranks, rank r in group r*G/p; the leaders = each group's first rank) made (a) with
// MPI_Comm_split, as the thesis' HBcast/HReduce did (two splits of the world), (b) with
// MPI_Comm_create_group by their members, as hympi does (lib/src/comm_from_ranks.hpp), and
// (c) hympi's whole creation of the grouped OP (its communicators and plan; pure policy).
// Each is timed from a barrier to the slowest rank's end; the minimum over REPS is printed.
// The simulated cost is SimGrid's implementation of each call, not MPICH's or Open MPI's.
// usage: smpirun ... hympi-smpi-split-cost OP BYTES G[,G...] [REPS]   (OP bcast | reduce)
// prints: CSV "op,ranks,bytes,groups,split_s,create_group_s,hympi_create_s" (rank 0)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/persistent.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"

#include "probe_args.hpp"

namespace {

// Minimum over reps of the slowest rank's time for `body` (which frees what it made).
double timed(int reps, const std::function<void()>& body) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    body();
    double mine = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = std::min(best, slowest);
  }
  return best;
}

void free_comm(MPI_Comm* comm) {
  if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
}

// The members of rank `rank`'s group and the leaders, for G balanced groups of p ranks.
struct Hierarchy {
  std::vector<int> group, leaders;
  bool leader = false;
  int color = 0;
  Hierarchy(int p, int g, int rank) : color(static_cast<int>(static_cast<long long>(rank) * g / p)) {
    for (int r = 0; r < p; ++r) {
      const int c = static_cast<int>(static_cast<long long>(r) * g / p);
      if (leaders.empty() || static_cast<int>(static_cast<long long>(leaders.back()) * g / p) != c) leaders.push_back(r);
      if (c == color) group.push_back(r);
    }
    leader = group.front() == rank;
  }
};

MPI_Comm create_group(const std::vector<int>& members, int tag) {
  MPI_Group all = MPI_GROUP_NULL, part = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &all);
  MPI_Group_incl(all, static_cast<int>(members.size()), members.data(), &part);
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_create_group(MPI_COMM_WORLD, part, tag, &out);
  MPI_Group_free(&part);
  MPI_Group_free(&all);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const auto [op, bytes, groups, reps] = hympi_probe::probe_args(argc, argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool valid = (op == "bcast" || op == "reduce") && bytes >= 8 && bytes <= (1LL << 31) && reps > 0 && !groups.empty();
  for (int g : groups) valid = valid && g >= 1 && g <= size;
  if (!valid) {
    if (rank == 0)
      std::fprintf(stderr,
                   "hympi-smpi-split-cost: error: usage OP BYTES G[,G...] [REPS]: OP bcast|reduce, 8 <= BYTES <= 2^31, "
                   "every G in 1..%d, REPS >= 1\n",
                   size);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) std::printf("op,ranks,bytes,groups,split_s,create_group_s,hympi_create_s\n");
  for (int g : groups) {
    const Hierarchy h(size, g, rank);
    const double split = timed(reps, [&] {
      MPI_Comm group = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, h.color, rank, &group);
      MPI_Comm_split(MPI_COMM_WORLD, h.leader ? 0 : MPI_UNDEFINED, rank, &leaders);
      free_comm(&group);
      free_comm(&leaders);
    });
    const double by_members = timed(reps, [&] {
      MPI_Comm group = create_group(h.group, 1), leaders = MPI_COMM_NULL;
      if (h.leader) leaders = create_group(h.leaders, 2);
      free_comm(&group);
      free_comm(&leaders);
    });
    const double whole = timed(reps, [&] {
      hympi::CollectiveOptions options;
      options.policy = hympi::Policy::pure;
      options.groups = g;
      const hympi::Topology& topo = hympi::Topology::flat(MPI_COMM_WORLD);
      std::unique_ptr<hympi::PersistentCollective> coll;
      if (op == "bcast")
        coll = hympi::Bcast::create_fixed(topo, 0, bytes, 1, options);
      else
        coll = hympi::Reduce::create(topo, bytes / 8, MPI_DOUBLE, MPI_SUM, 0, options);
    });
    if (rank == 0) std::printf("%s,%d,%lld,%d,%.9g,%.9g,%.9g\n", op.c_str(), size, bytes, g, split, by_members, whole);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
