// Results of the simulated layer's segmented reduce, allreduce and gather (glue/sim_segmented.cpp):
// MPI_Reduce (every root), MPI_Allreduce (MPI_SUM and MPI_MAX) and MPI_Gather (every root) of
// integer-valued doubles on the world (flat level), on groups of consecutive ranks (inside) and on
// every other rank (between), each against its value computed here. The algorithm per level is the
// run's HYMPI_SIM_<OP>_FLAT/_INSIDE/_BETWEEN (tests/smpi/hier_segments_test.sh names the layer's).
// usage: smpirun ... hympi-smpi-segmented-check COUNT   prints "segmented check: ok" on rank 0, exit 1 on a wrong value
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double value(int rank, int i) { return static_cast<double>((rank * 7 + i * 3) % 101); }

int check(MPI_Comm comm, int count, const char* level) {
  int rank = 0, size = 0, bad = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<double> mine(static_cast<std::size_t>(count)), sum(mine.size()), max(mine.size()), out(mine.size());
  for (int i = 0; i < count; ++i) {
    mine[static_cast<std::size_t>(i)] = value(rank, i);
    for (int r = 0; r < size; ++r) {
      sum[static_cast<std::size_t>(i)] += value(r, i);
      max[static_cast<std::size_t>(i)] = std::max(max[static_cast<std::size_t>(i)], value(r, i));
    }
  }
  for (int root = 0; root < size; ++root) {
    MPI_Reduce(mine.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, root, comm);
    if (rank == root && out != sum) bad |= 1;
    std::vector<double> all(static_cast<std::size_t>(count) * size, -1.0);
    MPI_Gather(mine.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, root, comm);
    for (int r = 0; rank == root && r < size; ++r)
      for (int i = 0; i < count; ++i)
        if (all[static_cast<std::size_t>(r) * count + i] != value(r, i)) bad |= 4;
  }
  MPI_Allreduce(mine.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, comm);
  if (out != sum) bad |= 2;
  MPI_Allreduce(mine.data(), out.data(), count, MPI_DOUBLE, MPI_MAX, comm);
  if (out != max) bad |= 2;
  if (bad) std::fprintf(stderr, "segmented check: %s rank %d of %d wrong:%s%s%s\n", level, rank, size,
                        bad & 1 ? " reduce" : "", bad & 2 ? " allreduce" : "", bad & 4 ? " gather" : "");
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int count = argc > 1 ? std::atoi(argv[1]) : 0;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (count < 1 || size < 4) {
    if (rank == 0) std::fprintf(stderr, "hympi-smpi-segmented-check: error: usage COUNT (>= 1), on >= 4 ranks\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm inside = MPI_COMM_NULL, between = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank / (size / 2), rank, &inside);  // two halves of consecutive ranks
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &between);          // even and odd ranks
  int bad = check(MPI_COMM_WORLD, count, "flat") | check(inside, count, "inside") | check(between, count, "between");
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
  if (rank == 0 && !any) std::printf("segmented check: ok (%d ranks, %d doubles)\n", size, count);
  MPI_Comm_free(&inside);
  MPI_Comm_free(&between);
  MPI_Finalize();
  return any ? 1 : 0;
}
