#include "pdgemm_runner.hpp"

#include <limits>
#include <string>
#include <vector>

#include "hympi/blacs.h"
#include "hympi/error.hpp"

namespace hympi::apps {

namespace {

hsumma::BlockCyclic1D dist(std::int64_t n, int procs, std::int64_t nb) {
  return nb > 0 ? hsumma::BlockCyclic1D{n, nb, procs} : hsumma::BlockCyclic1D::block(n, procs);
}

void describe(int* desc, const hsumma::LocalBlock& blk, int context) {
  const int rows = static_cast<int>(blk.rows.n), cols = static_cast<int>(blk.cols.n);
  const int mb = static_cast<int>(blk.rows.nb), nb = static_cast<int>(blk.cols.nb);
  const int zero = 0, lld = static_cast<int>(blk.ld());
  int info = 0;
  descinit_(desc, &rows, &cols, &mb, &nb, &zero, &zero, &context, &lld, &info);
  require(info == 0, "ScaLAPACK descinit failed with info=" + std::to_string(info));
}

}  // namespace

PdgemmRunner::PdgemmRunner(MPI_Comm comm, const TwoLevelShape& shape, std::int64_t m, std::int64_t n, std::int64_t k,
                           std::int64_t nb)
    : comm_(comm), m_(static_cast<int>(m)), n_(static_cast<int>(n)), k_(static_cast<int>(k)) {
  const std::int64_t int_max = std::numeric_limits<int>::max();
  require(m >= 1 && n >= 1 && k >= 1 && m <= int_max && n <= int_max && k <= int_max,
          "PDGEMM needs 1 <= m, n, k <= INT_MAX");
  require(nb >= 0, "the PDGEMM block size must be >= 0 (0 = the engine's distribution)");
  int size = 0, rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size));
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  shape.validate(size);
  const int P = shape.P, Q = shape.Q;
  std::vector<int> map(static_cast<std::size_t>(P) * Q);
  for (int r = 0; r < P; ++r)
    for (int c = 0; c < Q; ++c) map[r + c * P] = shape.rank_of(r, c);  // column-major, ldumap = P

  handle_ = Csys2blacs_handle(comm);
  context_ = handle_;
  Cblacs_gridmap(&context_, map.data(), P, P, Q);
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  Cblacs_gridinfo(context_, &nprow, &npcol, &myrow, &mycol);
  require(nprow == P && npcol == Q && myrow >= 0 && mycol >= 0, "BLACS grid setup failed");

  a_ = {dist(m, P, nb), dist(k, Q, nb), myrow, mycol};
  b_ = {dist(k, P, nb), dist(n, Q, nb), myrow, mycol};
  c_ = {dist(m, P, nb), dist(n, Q, nb), myrow, mycol};
  describe(desc_a_, a_, context_);
  describe(desc_b_, b_, context_);
  describe(desc_c_, c_, context_);
}

PdgemmRunner::~PdgemmRunner() {
  if (context_ >= 0) Cblacs_gridexit(context_);
  if (handle_ >= 0) Cfree_blacs_system_handle(handle_);
}

double PdgemmRunner::multiply(const double* A, const double* B, double* C) {
  const char no = 'N';
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  const double start = MPI_Wtime();
  pdgemm_(&no, &no, &m_, &n_, &k_, &alpha, A, &one, &one, desc_a_, B, &one, &one, desc_b_, &beta, C, &one, &one,
          desc_c_);
  HYMPI_CHECK_MPI(MPI_Barrier(comm_));
  return MPI_Wtime() - start;
}

}  // namespace hympi::apps
