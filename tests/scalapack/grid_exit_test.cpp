// Leaving a BLACS grid is local (issue 42, item 1): blacs_gridexit must not
// synchronize, even when hympi holds node windows for the grid (their
// MPI_Win_free is a barrier). The drop-in (linked before ScaLAPACK) retires a
// left grid and frees it later at a point all its ranks reach in one order.
// Scenarios (argv[1]), each its own ctest under a timeout, since the failure is a hang:
//   reuse   (np >= 3) grids A = {0,1}, B = all, C = {0,2}; A left early so its
//           context number is reused: rank 0 numbers C 0 and B 1, rank 2 the
//           other way round. pdgemm on B and C, then Cblacs_exit(1) (which ends
//           the grids in context order: a different order on ranks 0 and 2).
//   ssend   (np >= 2) rank 0 leaves its grid, then MPI_Recv; rank 1 MPI_Ssend,
//           then leaves (plain ScaLAPACK finishes this).
//   lagging (np >= 2) rank 0 leaves G1 and multiplies on a new G2 while the others
//           multiply on G2 first and leave G1 afterwards: G1 must not be freed
//           at G2's creation (its other ranks still hold it).
//   loop    (np >= 2) 12 x (grid, pdgemm, exit), alternately over all ranks and
//           over {0,1}: the retired grids held stay bounded (a new grid frees
//           the left grids whose ranks it covers: at most 1 on 2 ranks, 2 else).
// Every pdgemm is checked exactly against a serial product (small integers), and
// after MPI_Finalize nothing is held (MPI_Finalize frees what is left).
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hympi/blacs.h"
#include "hympi/pdgemm.h"
#include "mpi_check.hpp"

extern "C" int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);

namespace {

int rank = 0, size = 1, failures = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "[rank %d] grid_exit FAIL: %s\n", rank, what.c_str());
  ++failures;
}

// A grid of the world ranks `members` (1 x count, in that order); its context here,
// or -1 on ranks outside it. Collective over MPI_COMM_WORLD (as Cblacs_gridmap is).
int grid_of(std::vector<int> members) {
  int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
  Cblacs_gridmap(&ctxt, members.data(), 1, 1, static_cast<int>(members.size()));
  return ctxt;
}

std::vector<int> all_ranks() {
  std::vector<int> r(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) r[static_cast<std::size_t>(i)] = i;
  return r;
}

double a_at(int i, int j) { return (i + 2 * j) % 5 - 2; }
double b_at(int i, int j) { return (3 * i + j) % 7 - 3; }

// C = A B (n x n, blocks of nb over a 1 x Q grid), checked exactly. Collective over the grid.
void multiply(int ctxt, const std::string& where) {
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  if (myrow < 0) return fail(where + ": not in the grid");
  const int n = 12, nb = 2, zero = 0;
  const int rows = numroc_(&n, &nb, &myrow, &zero, &nprow), cols = numroc_(&n, &nb, &mycol, &zero, &npcol);
  const int lld = rows > 1 ? rows : 1;
  int desc[9], info = 0;
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  if (info != 0) return fail(where + ": descinit info " + std::to_string(info));
  const auto global_row = [&](int li) { return (li / nb * nprow + myrow) * nb + li % nb; };
  const auto global_col = [&](int lj) { return (lj / nb * npcol + mycol) * nb + lj % nb; };
  std::vector<double> A(static_cast<std::size_t>(lld * cols)), B(A.size()), C(A.size(), -7.0);
  for (int lj = 0; lj < cols; ++lj)
    for (int li = 0; li < rows; ++li) {
      A[static_cast<std::size_t>(lj * lld + li)] = a_at(global_row(li), global_col(lj));
      B[static_cast<std::size_t>(lj * lld + li)] = b_at(global_row(li), global_col(lj));
    }
  const double one = 1.0, none = 0.0;
  const int i1 = 1;
  pdgemm_("N", "N", &n, &n, &n, &one, A.data(), &i1, &i1, desc, B.data(), &i1, &i1, desc, &none, C.data(), &i1, &i1,
          desc);
  int bad = 0;
  for (int lj = 0; lj < cols; ++lj)
    for (int li = 0; li < rows; ++li) {
      double want = 0;
      for (int p = 0; p < n; ++p) want += a_at(global_row(li), p) * b_at(p, global_col(lj));
      bad += C[static_cast<std::size_t>(lj * lld + li)] != want;
    }
  if (bad) fail(where + ": " + std::to_string(bad) + " wrong entries");
}

void expect_held(int live, int retired, const std::string& where) {
  if (hympi_pdgemm_cached_grids() != live || hympi_pdgemm_retired_grids() != retired)
    fail(where + ": " + std::to_string(hympi_pdgemm_cached_grids()) + " live and " +
         std::to_string(hympi_pdgemm_retired_grids()) + " retired grids held, want " + std::to_string(live) + " and " +
         std::to_string(retired));
}

void reuse() {
  const int a = grid_of({0, 1});
  const int b = grid_of(all_ranks());
  if (a >= 0) Cblacs_gridexit(a);  // A's slot is free again on ranks 0 and 1
  const int c = grid_of({0, 2});
  // The point of the scenario: the two ranks of C number B and C the other way round.
  if (rank == 0 && !(c == a && b != c)) fail("rank 0 did not reuse A's context number for C");
  if (rank == 2 && !(b < c)) fail("rank 2 numbers C before B");
  multiply(b, "reuse: B");
  if (c >= 0) multiply(c, "reuse: C");
  Cblacs_exit(1);  // ends B and C in context order; MPI goes on
  expect_held(0, rank == 0 || rank == 2 ? 2 : 1, "reuse: after blacs_exit");
}

void ssend() {
  const int g = grid_of(all_ranks());
  multiply(g, "ssend");
  int token = 42;
  if (rank == 0) {
    Cblacs_gridexit(g);
    MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    if (rank == 1) MPI_Ssend(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    Cblacs_gridexit(g);
  }
  expect_held(0, 1, "ssend: after gridexit");
}

void lagging() {
  const int g1 = grid_of(all_ranks());
  multiply(g1, "lagging: G1");
  if (rank == 0) Cblacs_gridexit(g1);
  const int g2 = grid_of(all_ranks());
  multiply(g2, "lagging: G2");  // G2's creation: only rank 0 has left G1, so G1 stays
  expect_held(rank == 0 ? 1 : 2, rank == 0 ? 1 : 0, "lagging: after G2's first call");
  if (rank != 0) Cblacs_gridexit(g1);
  Cblacs_gridexit(g2);
  const int g3 = grid_of(all_ranks());
  multiply(g3, "lagging: G3");  // everyone left G1 and G2: both freed here
  expect_held(1, 0, "lagging: after G3's first call");
  Cblacs_gridexit(g3);
}

void loop() {
  for (int i = 0; i < 12; ++i) {
    // Alternately all ranks and the first two: a grid covering a left one frees it.
    const int g = grid_of(i % 2 == 0 || size == 2 ? all_ranks() : std::vector<int>{0, 1});
    if (g < 0) continue;
    multiply(g, "loop " + std::to_string(i));
    Cblacs_gridexit(g);
    // A grid of {0,1} cannot free a left grid of all ranks: two may wait for the next one.
    const int bound = size == 2 ? 1 : 2;
    if (hympi_pdgemm_retired_grids() > bound)
      fail("loop " + std::to_string(i) + ": " + std::to_string(hympi_pdgemm_retired_grids()) +
           " retired grids held (the bound is " + std::to_string(bound) + " here)");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = hympi::test::world_rank();
  size = hympi::test::world_size();
  const std::string scenario = argc > 1 ? argv[1] : "";
  const int needs = scenario == "reuse" ? 3 : 2;
  if (size < needs || (scenario != "reuse" && scenario != "ssend" && scenario != "lagging" && scenario != "loop")) {
    if (rank == 0) std::fprintf(stderr, "usage: grid_exit_test reuse|ssend|lagging|loop (np >= %d)\n", needs);
    MPI_Finalize();
    return 2;
  }
  if (scenario == "reuse") reuse();
  if (scenario == "ssend") ssend();
  if (scenario == "lagging") lagging();
  if (scenario == "loop") loop();
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  // MPI_Finalize frees every grid still held, in an order all ranks agree on.
  if (hympi_pdgemm_cached_grids() != 0 || hympi_pdgemm_retired_grids() != 0)
    std::fprintf(stderr, "[rank %d] grid_exit FAIL: %d live and %d retired grids held after MPI_Finalize\n", rank,
                 hympi_pdgemm_cached_grids(), hympi_pdgemm_retired_grids()),
        ++total;
  if (rank == 0) std::printf("grid exit %s: %d ranks: %s\n", scenario.c_str(), size, total ? "FAILED" : "ok");
  return total ? 1 : 0;
}
