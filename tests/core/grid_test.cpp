// Grid and two-level grid communicators: sizes, membership and ranks inside
// each communicator, for every factorization of the job size.
#include <mpi.h>

#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

int size_of(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}
int rank_in(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
// Every member of `comm` must report the same `key`.
bool members_agree(MPI_Comm comm, int key) {
  int lo = 0, hi = 0;
  MPI_Allreduce(&key, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&key, &hi, 1, MPI_INT, MPI_MAX, comm);
  return lo == hi;
}

void test_grid2d(int P, int Q, hympi::GridOrder order) {
  hympi::Grid2D grid(MPI_COMM_WORLD, P, Q, order);
  const std::string tag = std::to_string(P) + "x" + std::to_string(Q);
  check(grid.rank_of(grid.my_row(), grid.my_col()) == hympi::test::world_rank(), tag + " rank_of inverts position");
  check(size_of(grid.row_comm()) == Q && size_of(grid.col_comm()) == P, tag + " row/col sizes");
  check(members_agree(grid.row_comm(), grid.my_row()) && rank_in(grid.row_comm()) == grid.my_col(), tag + " row comm");
  check(members_agree(grid.col_comm(), grid.my_col()) && rank_in(grid.col_comm()) == grid.my_row(), tag + " col comm");
}

// Every member of comm shares both values `a` and `b` with this rank, whose rank in comm is `rank`.
void check_membership(MPI_Comm comm, int a, int b, int rank, const std::string& what) {
  check(members_agree(comm, a) && members_agree(comm, b) && rank_in(comm) == rank, what);
}

void test_two_level(hympi::TwoLevelShape shape) {
  hympi::TwoLevelGrid g(MPI_COMM_WORLD, shape);
  const std::string tag = std::to_string(shape.P) + "x" + std::to_string(shape.Q) + " groups " +
                          std::to_string(shape.I) + "x" + std::to_string(shape.J) +
                          (shape.group_major ? " group-major" : "");
  check(shape.rank_of(g.my_row(), g.my_col()) == hympi::test::world_rank(), tag + " rank_of");
  check(size_of(g.outer_row_comm()) == shape.J && size_of(g.outer_col_comm()) == shape.I, tag + " outer sizes");
  check(size_of(g.inner_row_comm()) == shape.group_cols() && size_of(g.inner_col_comm()) == shape.group_rows(),
        tag + " inner sizes");
  check_membership(g.outer_row_comm(), g.my_row(), g.col_in_group(), g.group_col(), tag + " outer row membership");
  check_membership(g.outer_col_comm(), g.my_col(), g.row_in_group(), g.group_row(), tag + " outer col membership");
  check_membership(g.inner_row_comm(), g.my_row(), g.group_col(), g.col_in_group(), tag + " inner row membership");
  check_membership(g.inner_col_comm(), g.my_col(), g.group_row(), g.row_in_group(), tag + " inner col membership");
  if (shape.group_major) {
    // A group's ranks are contiguous.
    const int group = g.group_row() * shape.J + g.group_col();
    const int per_group = shape.group_rows() * shape.group_cols();
    if (shape.order == hympi::GridOrder::row_major)
      check(hympi::test::world_rank() / per_group == group, tag + " group is a contiguous rank range");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int P = 1; P <= p; ++P) {
    if (p % P) continue;
    const int Q = p / P;
    for (auto order : {hympi::GridOrder::row_major, hympi::GridOrder::column_major}) {
      test_grid2d(P, Q, order);
      for (int I = 1; I <= P; ++I)
        for (int J = 1; J <= Q; ++J)
          if (P % I == 0 && Q % J == 0)
            for (bool group_major : {false, true}) test_two_level({P, Q, I, J, order, group_major});
    }
  }
  const int rc = hympi::test::finish("grid_test");
  MPI_Finalize();
  return rc;
}
