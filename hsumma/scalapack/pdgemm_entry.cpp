// The exported symbols: psgemm_, pdgemm_, pcgemm_, pzgemm_ (ScaLAPACK's Fortran
// convention) and the C API of hympi/pdgemm.h, the pass-on to ScaLAPACK's own
// p?gemm_ (the next definition
// in the lookup order: dlsym(RTLD_NEXT) works linked first or LD_PRELOADed),
// blacs_gridexit (retires the context's engines, locally; BLACS's own blacs_exit
// ends every context through it) and MPI_Finalize (through PMPI) and Fortran's
// mpi_finalize_: frees the engines still held, and prints the counters when
// HYMPI_PDGEMM_STATS=1, a line per precision used.
#include <dlfcn.h>
#include <mpi.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>

#include "grid_cache.hpp"
#include "hympi/blacs.h"
#include "hympi/pdgemm.h"
#include "pdgemm_call.hpp"
#include "settings.hpp"

namespace hs = hympi::hsumma::scalapack;

namespace {

// Per precision (s, d, c, z): calls per outcome.
struct Counts {
  long long handled = 0, passed = 0, errors = 0;
  long long direct = 0;  // of handled: run by the block-cyclic route
  long long gemm3m = 0;  // of handled: multiplied with the BLAS's 3M kernel (gemm3m)
};
constexpr int kCounters = 5;  // per precision, in Counts' order
constexpr char kPrecisions[] = {'s', 'd', 'c', 'z'};
Counts counts[4];
bool stats_printed = false;
std::string last_error;

Counts& counts_of(char precision) {
  for (int i = 0; i < 4; ++i)
    if (kPrecisions[i] == precision) return counts[i];
  return counts[1];
}

// ScaLAPACK's p?gemm_, any precision: the element arrays and scalars by address.
using PgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const void*, const void*,
                         const int*, const int*, const int*, const void*, const int*, const int*, const int*,
                         const void*, void*, const int*, const int*, const int*);

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

// ScaLAPACK's own routine of a precision, looked up on its first pass-on.
PgemmFn real_pgemm(char precision) {
  static PgemmFn real[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int i = 0; i < 4; ++i)
    if (kPrecisions[i] == precision) {
      if (!real[i]) real[i] = next_definition<PgemmFn>((std::string("p") + precision + "gemm_").c_str());
      return real[i];
    }
  std::abort();
}

// The statistics line of one precision; `ranks` > 1: summed over that many ranks.
void print_counts(char precision, const long long* v, int ranks) {
  const std::string kernel = v[4] > 0 ? "; " + std::to_string(v[4]) + " with the 3M kernel (gemm3m)" : "";
  std::fprintf(stderr,
               "hympi p%cgemm stats%s: %lld calls run by hympi, %lld valid calls passed on to ScaLAPACK, %lld "
               "calls with argument errors left to ScaLAPACK%s; %lld of the calls run by hympi on the caller's "
               "block-cyclic layout (direct engine)%s\n",
               precision, ranks > 0 ? "" : " (this rank)", v[0], v[1], v[2],
               ranks > 0 ? (" (rank-calls summed over " + std::to_string(ranks) + " ranks)").c_str() : "", v[3],
               kernel.c_str());
}

// pdgemm's line always (the counters tests and tools read), the others when used.
void print_all(const long long* all, int ranks) {
  for (int i = 0; i < 4; ++i) {
    const long long* v = all + kCounters * i;
    if (kPrecisions[i] == 'd' || v[0] + v[1] + v[2] > 0) print_counts(kPrecisions[i], v, ranks);
  }
}

void gather_counts(long long* out) {
  for (int i = 0; i < 4; ++i)
    for (const long long value :
         {counts[i].handled, counts[i].passed, counts[i].errors, counts[i].direct, counts[i].gemm3m})
      *out++ = value;
}

void print_local_stats() {
  if (stats_printed || !hs::settings().stats) return;
  long long mine[4 * kCounters];
  gather_counts(mine);
  print_all(mine, 0);
}

// Before MPI ends (the C MPI_Finalize or Fortran's), once: frees every grid
// still held, in an order all ranks agree on, and prints the counters
// (HYMPI_PDGEMM_STATS=1). Collective over MPI_COMM_WORLD, as finalizing is.
void before_finalize() {
  static bool done = false;
  if (done) return;
  done = true;
  try {
    hs::GridCache::instance().free_all();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hympi pdgemm: at MPI_Finalize: %s\n", e.what());
  }
  if (hs::settings().stats) {
    long long mine[4 * kCounters], sum[4 * kCounters];
    gather_counts(mine);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(mine, sum, 4 * kCounters, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) print_all(sum, size);
    stats_printed = true;
  }
}

// Runs the call through hympi (under settings `s`) or passes it on; counts which.
int dispatch(const hs::PdgemmCall& call, const hs::Settings& s) {
  static const bool at_exit = std::atexit(print_local_stats) == 0;  // in case MPI_Finalize is not seen
  static_cast<void>(at_exit);
  hs::Outcome outcome = hs::Outcome::invalid;
  try {
    outcome = hs::run_pdgemm(call, s);
  } catch (const std::exception& e) {  // after the grid committed: no way back to ScaLAPACK
    std::fprintf(stderr, "hympi p%cgemm: %s\n", call.elem.code, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  Counts& mine = counts_of(call.elem.code);
  if (outcome == hs::Outcome::run || outcome == hs::Outcome::run_direct) {
    ++mine.handled;
    if (outcome == hs::Outcome::run_direct) ++mine.direct;
    if (hympi::summa::is_3m(call.elem)) ++mine.gemm3m;
    return 1;
  }
  ++(outcome == hs::Outcome::unsupported ? mine.passed : mine.errors);
  const int ia = call.ia, ja = call.ja, ib = call.ib, jb = call.jb, ic = call.ic, jc = call.jc;
  real_pgemm(call.elem.code)(&call.transa, &call.transb, &call.m, &call.n, &call.k, call.alpha, call.a, &ia, &ja,
                             call.desca, call.b, &ib, &jb, call.descb, call.beta, call.c, &ic, &jc, call.descc);
  return 0;
}

// T's element, with the 3M kernel when gemm3m is set and T is complex.
template <class T>
const hympi::summa::Element& element_in_use(const hs::Settings& s) {
  const hympi::summa::Element& plain = hympi::summa::element<T>();
  const hympi::summa::Element* fast = s.gemm3m ? hympi::summa::element_3m(plain.code) : nullptr;
  return fast ? *fast : plain;
}

// One Fortran entry per precision: ScaLAPACK's convention (everything by address).
template <class T>
void fortran_entry(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
                   const void* a, const int* ia, const int* ja, const int* desca, const void* b, const int* ib,
                   const int* jb, const int* descb, const void* beta, void* c, const int* ic, const int* jc,
                   const int* descc) {
  const hs::Settings& s = hs::settings();  // read once per call
  const hympi::summa::Element& element = element_in_use<T>(s);
  dispatch(
      {element, *transa, *transb, *m, *n, *k, alpha, a, *ia, *ja, desca, b, *ib, *jb, descb, beta, c, *ic, *jc, descc},
      s);
}

template <class T>
int c_entry(char transa, char transb, int m, int n, int k, const void* alpha, const void* a, int ia, int ja,
            const int* desca, const void* b, int ib, int jb, const int* descb, const void* beta, void* c, int ic,
            int jc, const int* descc) {
  const hs::Settings& s = hs::settings();  // read once per call
  const hympi::summa::Element& element = element_in_use<T>(s);
  return dispatch({element, transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc},
                  s);
}

using Complex = std::complex<float>;
using Complex16 = std::complex<double>;

}  // namespace

extern "C" {

// ScaLAPACK's four P?GEMM (blacs.h) differ only in name and element type: one
// definition text for all. Complex: arrays of (re, im) pairs, alpha and beta one
// pair each, by reference (Real is the type of one part).
#define HYMPI_FORTRAN_PGEMM(name, Real, T)                                                                      \
  void name(const char* transa, const char* transb, const int* m, const int* n, const int* k, const Real* alpha, \
            const Real* a, const int* ia, const int* ja, const int* desca, const Real* b, const int* ib,          \
            const int* jb, const int* descb, const Real* beta, Real* c, const int* ic, const int* jc,             \
            const int* descc) {                                                                                   \
    fortran_entry<T>(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc); \
  }
HYMPI_FORTRAN_PGEMM(psgemm_, float, float)
HYMPI_FORTRAN_PGEMM(pdgemm_, double, double)
HYMPI_FORTRAN_PGEMM(pcgemm_, float, Complex)
HYMPI_FORTRAN_PGEMM(pzgemm_, double, Complex16)
#undef HYMPI_FORTRAN_PGEMM

int hympi_psgemm(char transa, char transb, int m, int n, int k, float alpha, const float* a, int ia, int ja,
                 const int* desca, const float* b, int ib, int jb, const int* descb, float beta, float* c, int ic,
                 int jc, const int* descc) {
  return c_entry<float>(transa, transb, m, n, k, &alpha, a, ia, ja, desca, b, ib, jb, descb, &beta, c, ic, jc, descc);
}

int hympi_pdgemm(char transa, char transb, int m, int n, int k, double alpha, const double* a, int ia, int ja,
                 const int* desca, const double* b, int ib, int jb, const int* descb, double beta, double* c, int ic,
                 int jc, const int* descc) {
  return c_entry<double>(transa, transb, m, n, k, &alpha, a, ia, ja, desca, b, ib, jb, descb, &beta, c, ic, jc, descc);
}

int hympi_pcgemm(char transa, char transb, int m, int n, int k, const float* alpha, const float* a, int ia, int ja,
                 const int* desca, const float* b, int ib, int jb, const int* descb, const float* beta, float* c,
                 int ic, int jc, const int* descc) {
  return c_entry<Complex>(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}

int hympi_pzgemm(char transa, char transb, int m, int n, int k, const double* alpha, const double* a, int ia, int ja,
                 const int* desca, const double* b, int ib, int jb, const int* descb, const double* beta, double* c,
                 int ic, int jc, const int* descc) {
  return c_entry<Complex16>(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
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

void hympi_pgemm_counts(char precision, long long* handled, long long* passed, long long* errors, long long* direct) {
  const Counts& c = counts_of(precision);
  if (handled) *handled = c.handled;
  if (passed) *passed = c.passed;
  if (errors) *errors = c.errors;
  if (direct) *direct = c.direct;
}

void hympi_pdgemm_counts(long long* handled, long long* passed, long long* errors) {
  hympi_pgemm_counts('d', handled, passed, errors, nullptr);
}

void hympi_pgemm_phase_seconds(char precision, double* staging, double* scale, double* panels, double* gemm,
                               double* total) {
  const hs::PhaseSeconds& t = hs::phase_seconds(precision);
  for (auto [out, value] :
       {std::pair{staging, t.staging}, {scale, t.scale}, {panels, t.panels}, {gemm, t.gemm}, {total, t.total}})
    if (out) *out = value;
}

long long hympi_pdgemm_direct_count(void) {
  return counts_of('d').direct;
}

// BLACS frees a context here, locally: so do we. hympi's engines of the grid
// (node windows, whose freeing is a barrier) are only retired, and freed later
// where all the grid's ranks agree (grid_cache.hpp).
void blacs_gridexit_(const int* context) {
  hs::GridCache::instance().retire(*context);
  static const auto real = next_definition<void (*)(const int*)>("blacs_gridexit_");
  real(context);
}

void Cblacs_gridexit(int context) {
  hs::GridCache::instance().retire(context);
  static const auto real = next_definition<void (*)(int)>("Cblacs_gridexit");
  real(context);
}

int hympi_pdgemm_cached_grids(void) {
  return hs::GridCache::instance().size();
}

int hympi_pdgemm_retired_grids(void) {
  return hs::GridCache::instance().retired();
}

int MPI_Finalize(void) {
  before_finalize();
  return PMPI_Finalize();
}

// Fortran's MPI_FINALIZE (mpif.h and `use mpi`): Open MPI's does not pass
// through the C MPI_Finalize above (MPICH's does: then before_finalize runs
// once, here). `use mpi_f08` is not seen: its grids go to MPI's finalization.
void mpi_finalize_(MPI_Fint* ierr) {
  before_finalize();
  static const auto real = next_definition<void (*)(MPI_Fint*)>("mpi_finalize_");
  real(ierr);
}

}  // extern "C"
