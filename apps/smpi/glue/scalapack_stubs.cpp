// ScaLAPACK is built against a real MPI and cannot run inside SMPI. In its place the
// SMPI build has ScaLAPACK's pdgemm_ *schedule* (apps/pdgemm_trace: the skeleton whose
// trace equals the real library's, checked by the scalapack.pdgemm_trace tests): every
// ring message through the simulated MPI layer, every local DGEMM charged by shape
// (sim_dgemm.cpp). A timing skeleton: C is not computed, so a run that needs numbers
// (HYMPI_SMPI_REAL_DGEMM=1, --check pdgemm) stops with a clear message. The BLACS calls
// hympi-summa makes keep a per-rank table of grids (globals are per rank under SMPI).
// Out of the skeleton's scope (another PBLAS algorithm, small sizes, unequal blocks):
// the run stops and says why. pdgemm_ and Cblacs_gridexit are weak: a program that links the
// drop-in (hsumma/scalapack: hympi-smpi-dropin-pdgemm) gets its strong definitions instead,
// and Cblacs_get / Cblacs2sys_handle give the drop-in a context's communicator.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "hympi/blacs.h"
#include "sim_groups.hpp"
#include "sim_sink.hpp"

namespace {

struct Grid {
  MPI_Comm comm = MPI_COMM_NULL;
  int P = 0, Q = 0, row = -1, col = -1;
  // The comm rank of grid place row * Q + col: one copy per distinct map for all ranks
  // (4 bytes x p a rank otherwise; sim_groups.hpp).
  const std::vector<int>* ranks = nullptr;
};

std::map<int, MPI_Comm> g_handles;
std::map<int, Grid> g_grids;
int g_next = 0;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "hympi (SMPI build): PDGEMM is ScaLAPACK's schedule, not ScaLAPACK: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" {
int Csys2blacs_handle(MPI_Comm comm) {
  g_handles[g_next] = comm;
  return g_next++;
}
void Cfree_blacs_system_handle(int handle) { g_handles.erase(handle); }
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol) {
  const auto h = g_handles.find(*context);
  if (h == g_handles.end()) fail("Cblacs_gridmap on an unknown system handle");
  Grid g;
  g.comm = h->second;
  g.P = nprow;
  g.Q = npcol;
  int me = -1;
  MPI_Comm_rank(g.comm, &me);
  std::vector<int> ranks;
  ranks.reserve(static_cast<std::size_t>(nprow) * static_cast<std::size_t>(npcol));
  for (int r = 0; r < nprow; ++r)
    for (int c = 0; c < npcol; ++c) {
      const int rank = usermap[r + c * ldumap];
      ranks.push_back(rank);
      if (rank == me) g.row = r, g.col = c;
    }
  g.ranks = &hympi_sim::shared_ranks(std::move(ranks));
  *context = g_next++;
  g_grids[*context] = g;
}
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol) {
  const auto g = g_grids.find(context);
  if (g == g_grids.end()) {
    *nprow = *npcol = *myrow = *mycol = -1;
    return;
  }
  *nprow = g->second.P, *npcol = g->second.Q, *myrow = g->second.row, *mycol = g->second.col;
}
__attribute__((weak)) void Cblacs_gridexit(int context) { g_grids.erase(context); }
// what = 10: a system handle of the context's communicator (all the drop-in asks).
void Cblacs_get(int context, int what, int* value) {
  const auto g = g_grids.find(context);
  if (what != 10 || g == g_grids.end()) fail("Cblacs_get: only what = 10 of a known grid is modelled");
  *value = Csys2blacs_handle(g->second.comm);
}
MPI_Comm Cblacs2sys_handle(int handle) {
  const auto h = g_handles.find(handle);
  if (h == g_handles.end()) fail("Cblacs2sys_handle on an unknown system handle");
  return h->second;
}
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* context, const int* lld, int* info) {
  const int d[9] = {1, *context, *m, *n, *mb, *nb, *irsrc, *icsrc, *lld};
  for (int i = 0; i < 9; ++i) desc[i] = d[i];
  *info = 0;
}
__attribute__((weak)) void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double*,
             const double*, const int* ia, const int* ja, const int* desca, const double*, const int* ib, const int* jb,
             const int* descb, const double*, double*, const int* ic, const int* jc, const int* descc) {
  const char* real = std::getenv("HYMPI_SMPI_REAL_DGEMM");
  if (real && real[0] == '1') fail("a timing skeleton computes no C (unset HYMPI_SMPI_REAL_DGEMM, use --check none)");
  const auto g = g_grids.find(descc[1]);
  if (g == g_grids.end() || g->second.row < 0) fail("pdgemm_ on a grid this rank is not in");
  for (const int* d : {desca, descb, descc})
    if (d[4] != d[5] || d[4] != desca[4] || d[6] != 0 || d[7] != 0)
      fail("the skeleton models one square block for A, B and C, sources 0 (--pdgemm-nb B, a square grid)");
  if (*ia != 1 || *ja != 1 || *ib != 1 || *jb != 1 || *ic != 1 || *jc != 1) fail("submatrices are not modelled");
  hympi::pdgemm_skel::Case c;
  c.P = g->second.P, c.Q = g->second.Q, c.M = *m, c.N = *n, c.K = *k, c.nb = desca[4];
  c.transa = static_cast<char>(*transa == 'n' ? 'N' : *transa == 't' ? 'T' : *transa);
  c.transb = static_cast<char>(*transb == 'n' ? 'N' : *transb == 't' ? 'T' : *transb);
  try {
    hympi::pdgemm_skel::check(c);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  const Grid& grid = g->second;
  hympi::pdgemm_skel::SimSink sink(c, grid.row * grid.Q + grid.col, grid.comm, *grid.ranks, nullptr);
  hympi::pdgemm_skel::run(c, grid.row * grid.Q + grid.col, sink);
}
}
