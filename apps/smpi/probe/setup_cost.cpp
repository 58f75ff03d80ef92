// Host-time cost of hympi's setup under SMPI, phase by phase: the world topology,
// an HSUMMA grid (I x J groups on a square grid) and the topologies of its
// communicators, as hympi-summa builds them. Rank 0 reads the host clock after a
// barrier ending each phase; while it waits, every other simulated rank runs, so
// the difference is the whole simulation's host time for that phase. Last, one
// MPI_Allreduce on the world (the driver reduces its timings so).
// Every grid communicator's members and rank order are checked against
// TwoLevelShape::rank_of (exit 1 otherwise).
// usage: smpirun ... hympi-smpi-setup-cost I J [group-major]
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hympi/grid.hpp"
#include "hympi/topology.hpp"

namespace {
double host_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}
// 1 unless `comm` holds, in rank order, the ranks at grid positions
// (row + i*dr, col + i*dc), i = 0..count-1.
int check_line(MPI_Comm comm, const hympi::TwoLevelShape& shape, int row, int col, int dr, int dc, int count) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (size != count) return 1;
  MPI_Group world_group, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(comm, &group);
  std::vector<int> ranks(size), world(size);
  for (int i = 0; i < size; ++i) ranks[i] = i;
  MPI_Group_translate_ranks(group, size, ranks.data(), world_group, world.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  for (int i = 0; i < size; ++i)
    if (world[i] != shape.rank_of(row + i * dr, col + i * dc)) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int I = argc > 2 ? std::atoi(argv[1]) : 1, J = argc > 2 ? std::atoi(argv[2]) : 1;
  const int side = static_cast<int>(std::lround(std::sqrt(size)));
  double t = host_seconds();
  const auto phase = [&](const char* name) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double now = host_seconds();
    if (rank == 0) std::printf("%-28s %8.2f s host\n", name, now - t);
    t = now;
  };
  phase("barrier");
  hympi::Topology::of(MPI_COMM_WORLD);
  phase("world topology");
  int bad = 0;
  {
    const bool group_major = argc > 3 && std::string(argv[3]) == "group-major";
    const hympi::TwoLevelShape shape{side, side, I, J, hympi::GridOrder::row_major, group_major};
    hympi::TwoLevelGrid grid(MPI_COMM_WORLD, shape);
    phase("two-level grid comms");
    const int gr = shape.group_rows(), gc = shape.group_cols();
    // Outer: across groups at my position inside the group; inner: inside my group.
    bad += check_line(grid.outer_row_comm(), shape, grid.my_row(), grid.col_in_group(), 0, gc, J);
    bad += check_line(grid.outer_col_comm(), shape, grid.row_in_group(), grid.my_col(), gr, 0, I);
    bad += check_line(grid.inner_row_comm(), shape, grid.my_row(), grid.group_col() * gc, 0, 1, gc);
    bad += check_line(grid.inner_col_comm(), shape, grid.group_row() * gr, grid.my_col(), 1, 0, gr);
    for (MPI_Comm c : {grid.outer_row_comm(), grid.outer_col_comm(), grid.inner_row_comm(), grid.inner_col_comm()})
      hympi::Topology::of(c);
    phase("topologies of grid comms");
  }
  phase("grid freed");
  double local[4] = {1, 2, 3, 4}, global[4];
  MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  phase("allreduce of 4 doubles");
  int bad_ranks = 0;
  MPI_Reduce(&bad, &bad_ranks, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%d ranks with a wrong grid communicator\n", bad_ranks);
  MPI_Finalize();
  return bad_ranks == 0 ? 0 : 1;
}
