// The thesis' hierarchical broadcast against the flat one, under SMPI (simulated time).
// G groups of consecutive ranks, balanced (rank r is in group r*G/p: floor(p/G) or
// ceil(p/G) ranks each, so G need not divide p, as at the thesis' 6142 cores); root 0
// broadcasts to the G group leaders (the first rank of each group), then every leader to
// its group, with the same MPI_Bcast (smpi/bcast picks each level's algorithm).
// G = 1 and G = p are the flat MPI_Bcast. Each repetition starts after a barrier and
// takes the slowest rank's time; the minimum over the repetitions is printed.
// usage: smpirun ... hympi-smpi-hier-bcast BYTES G[,G...] [REPS]
// prints: CSV "ranks,bytes,groups,time_s" (one line per G, rank 0)
#include <mpi.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "comm_from_ranks.hpp"  // lib/src: the core's sub-communicator from its members

extern "C" double hympi_smpi_flag_poll_seconds();  // onnode_cost.cpp: links the platform's cost rules

namespace {

std::vector<int> parse_groups(const char* text) {
  std::vector<int> groups;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) groups.push_back(std::atoi(item.c_str()));
  return groups;
}

// Balanced consecutive groups; with G | p, rank / (p / G) as before.
int group_of(int rank, int size, int groups) {
  return static_cast<int>(static_cast<long long>(rank) * groups / size);
}

double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

double time_bcast(char* buf, int bytes, int groups, int reps) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool flat = groups == 1 || groups == size;
  MPI_Comm inner = MPI_COMM_NULL, outer = MPI_COMM_NULL;
  if (!flat) {
    std::vector<int> mine, leaders;  // this rank's group; every group's first rank
    for (int r = 0; r < size; ++r) {
      const int g = group_of(r, size, groups);
      if (g == group_of(rank, size, groups)) mine.push_back(r);
      if (r == 0 || group_of(r - 1, size, groups) != g) leaders.push_back(r);
    }
    // From their members (the core's comm_from_ranks), not MPI_Comm_split: a split gathers
    // every rank's (color, key) at one rank, which SimGrid 3.32 finishes in time growing
    // faster than p^2 (a split at 6142 ranks did not end in 10 min of host time).
    inner = hympi::comm_from_ranks(MPI_COMM_WORLD, mine, 1);
    if (rank == mine.front()) outer = hympi::comm_from_ranks(MPI_COMM_WORLD, leaders, 2);
  }
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (flat) {
      MPI_Bcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else {
      if (outer != MPI_COMM_NULL) MPI_Bcast(buf, bytes, MPI_BYTE, 0, outer);
      MPI_Bcast(buf, bytes, MPI_BYTE, 0, inner);
    }
    best = std::min(best, slowest(MPI_Wtime() - start));
  }
  if (inner != MPI_COMM_NULL) MPI_Comm_free(&inner);
  if (outer != MPI_COMM_NULL) MPI_Comm_free(&outer);
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int bytes = argc > 1 ? std::atoi(argv[1]) : 0;
  const std::vector<int> groups = argc > 2 ? parse_groups(argv[2]) : std::vector<int>{};
  const int reps = argc > 3 ? std::atoi(argv[3]) : 2;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool valid = bytes > 0 && reps > 0 && !groups.empty();
  for (int g : groups) valid = valid && g >= 1 && g <= size;
  if (!valid) {
    if (rank == 0)
      std::fprintf(stderr, "hympi-smpi-hier-bcast: usage BYTES G[,G...] [REPS]: BYTES > 0, every G in 1..%d\n", size);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    std::printf("# flag poll %.3g us (platform cost rules linked)\nranks,bytes,groups,time_s\n",
                hympi_smpi_flag_poll_seconds() * 1e6);
  char* buf = static_cast<char*>(SMPI_SHARED_MALLOC(static_cast<std::size_t>(bytes)));
  for (int g : groups) {
    const double t = time_bcast(buf, bytes, g, reps);
    if (rank == 0) std::printf("%d,%d,%d,%.9g\n", size, bytes, g, t);
    std::fflush(stdout);
  }
  SMPI_SHARED_FREE(buf);
  MPI_Finalize();
  return 0;
}
