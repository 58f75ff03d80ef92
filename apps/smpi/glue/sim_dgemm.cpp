// Under SMPI the local update costs simulated time, not host time: cblas_dgemm
// (the engine's only compute call) becomes smpi_execute_flops(2*m*n*k) on the
// simulated host, whose speed the platform file states. This definition lives in
// the executable, so it preempts OpenBLAS's; every other BLAS call stays real.
// HYMPI_SMPI_REAL_DGEMM=1 forwards to the real routine instead (for correctness
// runs: the numbers are then right, and the compute time is whatever
// smpi/simulate-computation makes of it).
#include <cblas.h>
#include <dlfcn.h>
#include <smpi/smpi.h>

#include <cstdlib>

namespace {

using DgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, double,
                         const double*, blasint, const double*, blasint, double, double*, blasint);

DgemmFn real_dgemm() {
  static const DgemmFn fn = [] {
    const char* env = std::getenv("HYMPI_SMPI_REAL_DGEMM");
    if (!env || env[0] != '1') return DgemmFn{nullptr};
    return reinterpret_cast<DgemmFn>(dlsym(RTLD_NEXT, "cblas_dgemm"));
  }();
  return fn;
}

}  // namespace

extern "C" void cblas_dgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n, blasint k,
                            double alpha, const double* a, blasint lda, const double* b, blasint ldb, double beta,
                            double* c, blasint ldc) {
  if (DgemmFn fn = real_dgemm()) {
    fn(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  smpi_execute_flops(2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k));
}
