// hympi-pdgemm-trace-run: one ScaLAPACK pdgemm_ call on a P x Q row-major BLACS grid
// (block-cyclic A, B, C with one block nb, sources 0), nothing else: the program to run
// under the tracer (LD_PRELOAD=libhympi_pdgemm_tracer.so HYMPI_PDGEMM_TRACE=file).
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "case_options.hpp"
#include "hympi/blacs.h"

extern "C" {
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
}

namespace {

// A local array and descriptor for a global rows x cols operand.
struct Operand {
  std::vector<double> data;
  int desc[9];
};

Operand make(int rows, int cols, int nb, int ctxt, int myrow, int mycol, int nprow, int npcol, double value) {
  const int zero = 0;
  const int lr = numroc_(&rows, &nb, &myrow, &zero, &nprow), lc = numroc_(&cols, &nb, &mycol, &zero, &npcol);
  Operand op;
  const int lld = lr > 1 ? lr : 1;
  op.data.assign(static_cast<std::size_t>(lld) * (lc > 1 ? lc : 1), value);
  int info = 0;
  descinit_(op.desc, &rows, &cols, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  return op;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hympi::pdgemm_skel;
  CLI::App app{"hympi-pdgemm-trace-run: one ScaLAPACK pdgemm_ call for the tracer (apps/pdgemm_trace/README.md)",
               "hympi-pdgemm-trace-run"};
  CaseOptions o;
  add_case_options(app, o);
  if (const int rc = parse_or_exit(app, argc, argv, "hympi-pdgemm-trace-run"); rc >= 0) return rc;
  try {
    resolve(o);
    if (o.c.M < 1 || o.c.N < 1 || o.c.K < 1 || o.c.nb < 1) throw std::invalid_argument("M, N, K and nb must be >= 1");
    for (char t : {o.c.transa, o.c.transb})
      if (t != 'N' && t != 'T') throw std::invalid_argument("transposes must be N or T");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hympi-pdgemm-trace-run: error: %s\n", e.what());
    return 2;
  }
  MPI_Init(&argc, &argv);
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size != o.c.P * o.c.Q) {
    if (rank == 0)
      std::fprintf(stderr, "hympi-pdgemm-trace-run: error: the grid %s has %d ranks but MPI_COMM_WORLD has %d\n",
                   o.grid.c_str(), o.c.P * o.c.Q, size);
    MPI_Finalize();
    return 2;
  }
  int ctxt = 0, nprow = 0, npcol = 0, myrow = 0, mycol = 0;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", o.c.P, o.c.Q);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  const int m = static_cast<int>(o.c.M), n = static_cast<int>(o.c.N), k = static_cast<int>(o.c.K), nb = o.c.nb;
  const bool ta = o.c.transa == 'T', tb = o.c.transb == 'T';
  Operand a = make(ta ? k : m, ta ? m : k, nb, ctxt, myrow, mycol, nprow, npcol, 0.5);
  Operand b = make(tb ? n : k, tb ? k : n, nb, ctxt, myrow, mycol, nprow, npcol, 0.25);
  Operand c = make(m, n, nb, ctxt, myrow, mycol, nprow, npcol, 0.0);
  const double alpha = 1.0, beta = 0.0;
  const int one = 1;
  const char tra[2] = {o.c.transa, 0}, trb[2] = {o.c.transb, 0};
  pdgemm_(tra, trb, &m, &n, &k, &alpha, a.data.data(), &one, &one, a.desc, b.data.data(), &one, &one, b.desc, &beta,
          c.data.data(), &one, &one, c.desc);
  // A cheap sanity check: every local entry of C is 0.5 * 0.25 * K (exact in binary).
  const int zero = 0;
  const int lr = numroc_(&m, &nb, &myrow, &zero, &nprow), lc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  const int lld = c.desc[8];
  long wrong = 0;
  for (int j = 0; j < lc; ++j)
    for (int i = 0; i < lr; ++i)
      if (c.data[static_cast<std::size_t>(j) * lld + i] != 0.125 * k) ++wrong;
  long wrong_all = 0;
  MPI_Reduce(&wrong, &wrong_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  Cblacs_gridexit(ctxt);
  if (rank == 0) std::printf("hympi-pdgemm-trace-run: grid %dx%d m=%d n=%d k=%d nb=%d %c%c: %s\n", o.c.P, o.c.Q, m, n,
                             k, nb, o.c.transa, o.c.transb, wrong_all ? "WRONG result" : "result ok");
  MPI_Finalize();
  return wrong_all ? 1 : 0;
}
