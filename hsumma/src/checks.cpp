#include "hympi/hsumma/checks.hpp"

#include <cblas.h>

#include <cmath>
#include <limits>

#include "hympi/error.hpp"

namespace hympi::hsumma {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double sum_all(MPI_Comm comm, double value) {
  double total = 0;
  HYMPI_CHECK_MPI(MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, comm));
  return total;
}

void sum_all(MPI_Comm comm, std::vector<double>& values) {
  HYMPI_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, comm));
}

double bound(std::int64_t k, double norm_a, double norm_b) {
  return kCheckFactor * std::numeric_limits<double>::epsilon() * static_cast<double>(k) * norm_a * norm_b;
}

// y[global row] += M x[global col] over the local part of a distributed matrix.
void local_matvec(const LocalBlock& blk, const double* data, const std::vector<double>& x, std::vector<double>& y) {
  const std::int64_t rows = blk.local_rows(), cols = blk.local_cols(), ld = blk.ld();
  std::vector<double> xs(cols), ys(rows, 0.0);
  for (std::int64_t j = 0; j < cols; ++j) xs[j] = x[blk.cols.global_index(blk.col_proc, j)];
  if (rows > 0 && cols > 0)
    cblas_dgemv(CblasColMajor, CblasNoTrans, static_cast<int>(rows), static_cast<int>(cols), 1.0, data,
                static_cast<int>(ld), xs.data(), 1, 0.0, ys.data(), 1);
  for (std::int64_t i = 0; i < rows; ++i) y[blk.rows.global_index(blk.row_proc, i)] += ys[i];
}

}  // namespace

double matrix_entry(std::uint64_t seed, std::int64_t i, std::int64_t j) {
  const std::uint64_t h =
      mix(mix(seed ^ (static_cast<std::uint64_t>(i) * 0x100000001b3ULL)) + static_cast<std::uint64_t>(j));
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

std::vector<double> fill_local(const LocalBlock& blk, std::uint64_t seed) {
  const std::int64_t rows = blk.local_rows(), cols = blk.local_cols(), ld = blk.ld();
  std::vector<double> data(static_cast<std::size_t>(std::max<std::int64_t>(1, ld * cols)), 0.0);
  for (std::int64_t j = 0; j < cols; ++j) {
    const std::int64_t gj = blk.cols.global_index(blk.col_proc, j);
    for (std::int64_t i = 0; i < rows; ++i)
      data[j * ld + i] = matrix_entry(seed, blk.rows.global_index(blk.row_proc, i), gj);
  }
  return data;
}

double frobenius_norm(MPI_Comm comm, const LocalBlock& blk, const double* data) {
  double sum = 0;
  for (std::int64_t j = 0; j < blk.local_cols(); ++j)
    for (std::int64_t i = 0; i < blk.local_rows(); ++i) sum += data[j * blk.ld() + i] * data[j * blk.ld() + i];
  return std::sqrt(sum_all(comm, sum));
}

CheckResult check_same_layout(MPI_Comm comm, const LocalBlock& blk, const double* C, const double* C_ref,
                              std::int64_t k, double norm_a, double norm_b) {
  double sum = 0;
  for (std::int64_t j = 0; j < blk.local_cols(); ++j)
    for (std::int64_t i = 0; i < blk.local_rows(); ++i) {
      const double d = C[j * blk.ld() + i] - C_ref[j * blk.ld() + i];
      sum += d * d;
    }
  CheckResult r;
  r.error = std::sqrt(sum_all(comm, sum));
  if (std::isnan(r.error)) r.error = std::numeric_limits<double>::infinity();
  r.bound = bound(k, norm_a, norm_b);
  return r;
}

CheckResult check_serial(MPI_Comm comm, const LocalBlock& blk, const double* C, std::int64_t k, std::uint64_t seed_a,
                         std::uint64_t seed_b, double norm_a, double norm_b) {
  const std::int64_t rows = blk.local_rows(), cols = blk.local_cols();
  std::vector<double> a(std::max<std::int64_t>(1, rows * k)), b(std::max<std::int64_t>(1, k * cols));
  std::vector<double> ref(std::max<std::int64_t>(1, blk.ld() * cols), 0.0);
  for (std::int64_t kk = 0; kk < k; ++kk)
    for (std::int64_t i = 0; i < rows; ++i)
      a[kk * rows + i] = matrix_entry(seed_a, blk.rows.global_index(blk.row_proc, i), kk);
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t kk = 0; kk < k; ++kk)
      b[j * k + kk] = matrix_entry(seed_b, kk, blk.cols.global_index(blk.col_proc, j));
  if (rows > 0 && cols > 0)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(cols),
                static_cast<int>(k), 1.0, a.data(), static_cast<int>(rows), b.data(), static_cast<int>(k), 0.0,
                ref.data(), static_cast<int>(blk.ld()));
  return check_same_layout(comm, blk, C, ref.data(), k, norm_a, norm_b);
}

CheckResult check_residual(MPI_Comm comm, const LocalBlock& a_blk, const double* A, const LocalBlock& b_blk,
                           const double* B, const LocalBlock& c_blk, const double* C, double norm_a, double norm_b) {
  const std::int64_t m = c_blk.rows.n, n = c_blk.cols.n, k = a_blk.cols.n;
  std::vector<double> x(n);
  double xnorm = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    x[j] = matrix_entry(0x5eedULL, 0, j);
    xnorm += x[j] * x[j];
  }
  xnorm = std::sqrt(xnorm);
  std::vector<double> bx(k, 0.0), abx(m, 0.0), cx(m, 0.0);
  local_matvec(b_blk, B, x, bx);
  sum_all(comm, bx);
  local_matvec(a_blk, A, bx, abx);
  local_matvec(c_blk, C, x, cx);
  sum_all(comm, abx);
  sum_all(comm, cx);
  double err = 0;
  for (std::int64_t i = 0; i < m; ++i) err += (cx[i] - abx[i]) * (cx[i] - abx[i]);
  CheckResult r;
  r.error = std::sqrt(err);
  if (std::isnan(r.error)) r.error = std::numeric_limits<double>::infinity();
  r.bound = bound(k, norm_a, norm_b) * xnorm;
  return r;
}

}  // namespace hympi::hsumma
