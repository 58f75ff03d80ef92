// The exported symbols: pdgemm_ (ScaLAPACK's Fortran convention) and the C API
// of hympi/pdgemm.h, the pass-on to ScaLAPACK's own pdgemm_ (the next definition
// in the lookup order: dlsym(RTLD_NEXT) works linked first or LD_PRELOADed),
// blacs_gridexit (frees the context's engines; BLACS's own blacs_exit ends every
// context through it) and MPI_Finalize (through PMPI: prints the counters when
// HYMPI_PDGEMM_STATS=1).
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "grid_cache.hpp"
#include "hympi/blacs.h"
#include "hympi/pdgemm.h"
#include "pdgemm_call.hpp"
#include "settings.hpp"

namespace hs = hympi::hsumma::scalapack;

namespace {

long long handled_calls = 0, passed_calls = 0, error_calls = 0;  // per outcome
long long direct_calls = 0;                                      // of handled_calls: run by the block-cyclic route
bool stats_printed = false;
std::string last_error;

using PdgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                          const int*, const int*, const int*, const double*, const int*, const int*, const int*,
                          const double*, double*, const int*, const int*, const int*);

template <class Fn>
Fn next_definition(const char* name) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (!symbol) {
    std::fprintf(stderr,
                 "hympi pdgemm: no %s after hympi_scalapack in the link order (link ScaLAPACK after "
                 "hympi_scalapack, or preload hympi_scalapack into a ScaLAPACK program)\n",
                 name);
    std::abort();
  }
  return reinterpret_cast<Fn>(symbol);
}

void print_local_stats() {
  if (stats_printed || !hs::settings().stats) return;
  std::fprintf(stderr,
               "hympi pdgemm stats (this rank): %lld calls run by hympi, %lld valid calls passed on to ScaLAPACK, "
               "%lld calls with argument errors left to ScaLAPACK; %lld of the calls run by hympi on the caller's "
               "block-cyclic layout (direct engine)\n",
               handled_calls, passed_calls, error_calls, direct_calls);
}

// Runs the call through hympi or passes it on; counts which.
int dispatch(const hs::PdgemmCall& call) {
  static const bool at_exit = std::atexit(print_local_stats) == 0;  // in case MPI_Finalize is not seen
  static_cast<void>(at_exit);
  hs::Outcome outcome = hs::Outcome::invalid;
  try {
    outcome = hs::run_pdgemm(call);
  } catch (const std::exception& e) {  // after the grid committed: no way back to ScaLAPACK
    std::fprintf(stderr, "hympi pdgemm: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (outcome == hs::Outcome::run || outcome == hs::Outcome::run_direct) {
    ++handled_calls;
    if (outcome == hs::Outcome::run_direct) ++direct_calls;
    return 1;
  }
  ++(outcome == hs::Outcome::unsupported ? passed_calls : error_calls);
  static const PdgemmFn real = next_definition<PdgemmFn>("pdgemm_");
  const int ia = call.ia, ja = call.ja, ib = call.ib, jb = call.jb, ic = call.ic, jc = call.jc;
  real(&call.transa, &call.transb, &call.m, &call.n, &call.k, &call.alpha, call.a, &ia, &ja, call.desca, call.b, &ib,
       &jb, call.descb, &call.beta, call.c, &ic, &jc, call.descc);
  return 0;
}

}  // namespace

extern "C" {

void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc) {
  dispatch({*transa, *transb, *m, *n, *k, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb, *beta, c, *ic, *jc, descc});
}

int hympi_pdgemm(char transa, char transb, int m, int n, int k, double alpha, const double* a, int ia, int ja,
                 const int* desca, const double* b, int ib, int jb, const int* descb, double beta, double* c, int ic,
                 int jc, const int* descc) {
  return dispatch({transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc});
}

int hympi_pdgemm_set(const char* key, const char* value) {
  hs::Settings changed = hs::settings();
  last_error = changed.set(key ? key : "", value ? value : "");
  if (!last_error.empty()) return -1;
  hs::settings() = changed;
  return 0;
}

// All or nothing: every known key found in `info` is applied to a copy, which is
// committed only when all were good (a refused key leaves no half-applied set).
int hympi_pdgemm_set_info(MPI_Info info) {
  last_error.clear();
  if (info == MPI_INFO_NULL) return 0;  // no keys; MPI_Info_get would raise an MPI error on it
  hs::Settings changed = hs::settings();
  for (const hs::SettingKey& setting : hs::setting_keys()) {
    const char* key = setting.name;
    char value[MPI_MAX_INFO_VAL + 1];
    int found = 0;
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &found) != MPI_SUCCESS) {
      last_error = std::string("cannot read info key ") + key;
      return -1;
    }
    if (!found) continue;
    last_error = changed.set(key, value);
    if (!last_error.empty()) return -1;
  }
  hs::settings() = changed;
  return 0;
}

const char* hympi_pdgemm_last_error(void) {
  return last_error.c_str();
}

void hympi_pdgemm_counts(long long* handled, long long* passed, long long* errors) {
  if (handled) *handled = handled_calls;
  if (passed) *passed = passed_calls;
  if (errors) *errors = error_calls;
}

long long hympi_pdgemm_direct_count(void) {
  return direct_calls;
}

// BLACS frees a context here, collectively over its grid: so do we.
void blacs_gridexit_(const int* context) {
  hs::GridCache::instance().release(*context);
  static const auto real = next_definition<void (*)(const int*)>("blacs_gridexit_");
  real(context);
}

void Cblacs_gridexit(int context) {
  hs::GridCache::instance().release(context);
  static const auto real = next_definition<void (*)(int)>("Cblacs_gridexit");
  real(context);
}

int hympi_pdgemm_cached_grids(void) {
  return hs::GridCache::instance().size();
}

int MPI_Finalize(void) {
  if (hs::settings().stats) {
    long long mine[4] = {handled_calls, passed_calls, error_calls, direct_calls}, sum[4] = {0, 0, 0, 0};
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(mine, sum, 4, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::fprintf(stderr,
                   "hympi pdgemm stats: %lld calls run by hympi, %lld valid calls passed on to ScaLAPACK, %lld "
                   "calls with argument errors left to ScaLAPACK (rank-calls summed over %d ranks); %lld of the "
                   "calls run by hympi on the caller's block-cyclic layout (direct engine)\n",
                   sum[0], sum[1], sum[2], size, sum[3]);
    stats_printed = true;
  }
  return PMPI_Finalize();
}

}  // extern "C"
