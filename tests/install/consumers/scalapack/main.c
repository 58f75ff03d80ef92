/* ScaLAPACK consumer: C = A * B by pdgemm_ on a 1 x p BLACS grid, C filled
 * with NaN and beta = 0 (must not be read). Entries are multiples of 1/8, so
 * the result is exact whatever the summation order; the counters must say
 * hympi ran the call (linked before ScaLAPACK, not passed on). */
#include <hympi/pdgemm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int rows, int cols);
void Cblacs_gridinfo(int context, int* rows, int* cols, int* row, int* col);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* ictxt, const int* lld, int* info);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);

static double entry(int which, int i, int j) {
  return (double)((i * 7 + j * 13 + which * 5) % 17 - 8) / 8;
}

int main(int argc, char** argv) {
  (void)argc, (void)argv;
  MPI_Init(&argc, &argv);
  int size, ctx, rows, cols, row, col, info, zero = 0, one = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Cblacs_get(-1, 0, &ctx);
  Cblacs_gridinit(&ctx, "Row-major", 1, size);
  Cblacs_gridinfo(ctx, &rows, &cols, &row, &col);
  const int n = 100, nb = 16;
  const int ncols = numroc_(&n, &nb, &col, &zero, &cols), lld = n;
  int desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctx, &lld, &info);
  double* a = malloc(sizeof(double) * n * (ncols + 1));
  double* b = malloc(sizeof(double) * n * (ncols + 1));
  double* c = malloc(sizeof(double) * n * (ncols + 1));
  for (int lj = 0; lj < ncols; ++lj) {
    const int gj = (lj / nb * cols + col) * nb + lj % nb; /* global column of local lj */
    for (int i = 0; i < n; ++i) {
      a[lj * lld + i] = entry(0, i, gj);
      b[lj * lld + i] = entry(1, i, gj);
      c[lj * lld + i] = NAN;
    }
  }
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c, &one, &one, desc);
  int wrong = 0, total = 0;
  for (int lj = 0; lj < ncols; ++lj) {
    const int gj = (lj / nb * cols + col) * nb + lj % nb;
    for (int i = 0; i < n; ++i) {
      double want = 0;
      for (int p = 0; p < n; ++p) want += entry(0, i, p) * entry(1, p, gj);
      wrong += !(c[lj * lld + i] == want);
    }
  }
  long long handled = 0, passed = 0, errors = 0;
  hympi_pdgemm_counts(&handled, &passed, &errors);
  wrong += handled != 1 || passed != 0 || errors != 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("consumer_scalapack: grid 1x%d, run by hympi %lld, passed on %lld: %s\n", cols, handled, passed,
         total ? "FAILED" : "ok");
  free(a), free(b), free(c);
  Cblacs_gridexit(ctx);
  MPI_Finalize();
  return total != 0;
}
