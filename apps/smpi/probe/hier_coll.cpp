// The thesis' hierarchical collectives (chapter 3) against the flat ones, under SMPI (simulated
// time), through the core's grouped collectives (options.groups = G, pure policy: G balanced
// groups of consecutive ranks, the outer collective among the leaders, the inner one inside the
// groups; lib/src/grouped/). OP: bcast, reduce (root 0), allreduce (MPI_SUM of doubles), gather,
// scatter (root 0). BYTES: the message: bcast/reduce/allreduce the vector, gather/scatter the
// root's whole buffer (BYTES / p per rank, rounded down to a double). The algorithm per level is
// the simulated MPI layer's (apps/smpi/glue/sim_levels.cpp: HYMPI_SIM_<OP>_BETWEEN / _INSIDE) or
// SMPI's smpi/<op> setting. Each repetition starts after a barrier and takes the slowest rank's
// time; the minimum over the repetitions is printed.
// usage: smpirun ... hympi-smpi-hier-coll OP BYTES G[,G...] [REPS]
// prints: CSV "op,ranks,bytes,groups,time_s" (one line per G, rank 0; groups = the G used)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/persistent.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"

#include "probe_args.hpp"

namespace {

std::unique_ptr<hympi::PersistentCollective> make(const std::string& op, long long bytes, int size, int groups) {
  hympi::CollectiveOptions options;
  options.policy = hympi::Policy::pure;  // no node discovery (minutes at hundreds of ranks)
  options.groups = groups;
  const hympi::Topology& topo = hympi::Topology::flat(MPI_COMM_WORLD);
  const long long doubles = bytes / 8;
  if (op == "bcast") return hympi::Bcast::create_fixed(topo, 0, bytes, 1, options);
  if (op == "reduce") return hympi::Reduce::create(topo, doubles, MPI_DOUBLE, MPI_SUM, 0, options);
  if (op == "allreduce") return hympi::Allreduce::create(topo, doubles, MPI_DOUBLE, MPI_SUM, options);
  if (op == "gather") return hympi::Gather::create(topo, 0, doubles / size, 8, options);
  return hympi::Scatter::create(topo, 0, doubles / size, 8, options);
}

double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const auto [op, bytes, groups, reps] = hympi_probe::probe_args(argc, argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool rooted = op == "gather" || op == "scatter";
  bool valid = (op == "bcast" || op == "reduce" || op == "allreduce" || rooted) && bytes >= 8 &&
               bytes <= (1LL << 31) && reps > 0 && !groups.empty() && (!rooted || bytes / 8 >= size);
  for (int g : groups) valid = valid && g >= 1 && g <= size;
  if (!valid) {
    if (rank == 0)
      std::fprintf(stderr,
                   "hympi-smpi-hier-coll: error: usage OP BYTES G[,G...] [REPS]: OP bcast|reduce|allreduce|gather|"
                   "scatter, 8 <= BYTES <= 2^31 (gather/scatter: >= 8 x %d), every G in 1..%d, REPS >= 1\n",
                   size, size);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) std::printf("op,ranks,bytes,groups,time_s\n");
  bool first = true;
  for (int g : groups) {
    auto coll = make(op, bytes, size, g);
    if (first) {  // untimed: SimGrid charges the process's first allreduce of a size a one-time cost
      // (redbcast, GigE, 16 KiB on 32 ranks: +2.1 ms at 4 per node, +3.5 ms at 1 per node; +8.9 ms at
      // 128 x 4 and 256 KiB; a warm-up of 8 B does not absorb it, one of 16 KiB does; mechanism not
      // identified), which the first G (the flat one, every gain's reference) alone paid at --reps 1;
      // the later objects follow a run of the same size (apps/smpi/README.md "The flat reference timed warm")
      MPI_Barrier(MPI_COMM_WORLD);
      coll->run();
      first = false;
    }
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      coll->run();
      best = std::min(best, slowest(MPI_Wtime() - start));
    }
    if (rank == 0) std::printf("%s,%d,%lld,%d,%.9g\n", op.c_str(), size, bytes, g, best);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
