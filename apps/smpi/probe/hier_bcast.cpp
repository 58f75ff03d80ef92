// The thesis' hierarchical broadcast against the flat one, under SMPI (simulated time),
// through the core's grouped broadcast (Bcast::create_fixed with options.groups = G,
// pure policy: lib/src/grouped/): G balanced groups of consecutive ranks (rank r in
// group r*G/p: floor(p/G) or ceil(p/G) ranks each, so G need not divide p, as at the
// thesis' 6142 cores); root 0 broadcasts to the G group leaders (the first rank of
// each group), then every leader to its group, with the same MPI_Bcast (smpi/bcast
// picks each level's algorithm). G = 1 and G = p are the flat MPI_Bcast. "auto" is
// the core's groups = auto (its closed form, lib/src/grouped/auto_groups.cpp, with the
// machine of HYMPI_MODEL_ALPHA, HYMPI_MODEL_BETA and HYMPI_MODEL_BCAST); its choice is
// also printed as a '#' line. Each repetition starts after a barrier and takes the
// slowest rank's time; the minimum over the repetitions is printed.
// usage: smpirun ... hympi-smpi-hier-bcast BYTES[,BYTES...] G[,G...|auto] [REPS]
// (several sizes in one run: the start-up of thousands of simulated ranks is paid once)
// prints: CSV "ranks,bytes,asked,groups,time_s,model_s" (one line per size and G, rank 0; asked =
// the G given or auto, groups = the G used, model_s = the closed form's time for it)
#include <mpi.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "grouped/grouped.hpp"  // lib/src: the model's prediction for the '#' line
#include "hympi/collectives.hpp"
#include "hympi/topology.hpp"

extern "C" double hympi_smpi_flag_poll_seconds();  // onnode_cost.cpp: links the platform's cost rules

namespace {

// A comma list of positive integers; "auto" is 0 (the core's automatic choice of G);
// anything else is -1 (refused by the caller).
std::vector<int> parse_list(const char* text) {
  std::vector<int> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    const bool number = !item.empty() && *end == '\0' && v > 0 && v <= 2147483647L;
    values.push_back(item == "auto" ? 0 : number ? static_cast<int>(v) : -1);
  }
  return values;
}

double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

// Flat topology: the pure policy needs no node discovery (minutes at thousands of ranks).
// Every object runs once untimed first: SimGrid charges the process's first broadcast of a size a
// one-time cost (Graphene GigE, smpi:ompi, 32 ranks one per node: +3.5 ms at 16 KiB and at 1 MiB),
// which at --reps 1 the first G of each size (the flat one, every gain's reference) alone paid, and
// DCMF classifies each new communicator at its first broadcast, which every G > 1 paid.
double time_bcast(int bytes, int groups, int reps) {
  hympi::CollectiveOptions options;
  options.policy = hympi::Policy::pure;
  options.groups = groups;
  auto bcast = hympi::Bcast::create_fixed(hympi::Topology::flat(MPI_COMM_WORLD), 0, bytes, 1, options);
  MPI_Barrier(MPI_COMM_WORLD);
  bcast->run();
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    bcast->run();
    best = std::min(best, slowest(MPI_Wtime() - start));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::vector<int> sizes = argc > 1 ? parse_list(argv[1]) : std::vector<int>{};
  const std::vector<int> groups = argc > 2 ? parse_list(argv[2]) : std::vector<int>{};
  const int reps = argc > 3 ? std::atoi(argv[3]) : 2;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool valid = !sizes.empty() && reps > 0 && !groups.empty();
  for (int b : sizes) valid = valid && b > 0;
  for (int g : groups) valid = valid && g >= 0 && g <= size;
  if (!valid) {
    if (rank == 0)
      std::fprintf(stderr,
                   "hympi-smpi-hier-bcast: usage BYTES[,BYTES...] G[,G...|auto] [REPS]: every BYTES > 0, "
                   "every G in 1..%d\n",
                   size);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    std::printf("# flag poll %.3g us (platform cost rules linked)\nranks,bytes,asked,groups,time_s,model_s\n",
                hympi_smpi_flag_poll_seconds() * 1e6);
  for (int bytes : sizes)
    for (int g : groups) {
      hympi::CollectiveOptions options;
      options.policy = hympi::Policy::pure;
      options.groups = g;
      const int used = hympi::effective_groups(hympi::Topology::flat(MPI_COMM_WORLD), options, bytes);
      const double t = time_bcast(bytes, g, reps);
      if (rank == 0) {
        const auto m = hympi::detail::model_machine();
        const double model = hympi::detail::grouped_seconds(size, used, bytes, m);
        if (g == 0)
          std::printf("# auto: G = %d, model %.9g s (%s)\n", used, model, hympi::grouped_model_machine().c_str());
        std::printf("%d,%d,%s,%d,%.9g,%.9g\n", size, bytes, g == 0 ? "auto" : std::to_string(g).c_str(), used, t, model);
      }
      std::fflush(stdout);
    }
  MPI_Finalize();
  return 0;
}
