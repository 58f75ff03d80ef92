#include "summa_setup.hpp"

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "hympi/error.hpp"

namespace hympi::apps {

TwoLevelShape Setup::shape(bool grouped, std::pair<int, int> ij) const {
  return grouped ? TwoLevelShape{P, Q, ij.first, ij.second, o.order, o.group_major}
                 : TwoLevelShape{P, Q, 1, 1, o.order, false};
}

hsumma::EngineOptions Setup::engine_options(bool grouped, Policy policy, int lookahead) const {
  hsumma::EngineOptions e;
  e.m = pb.m, e.n = pb.n, e.k = pb.k;
  e.b = pb.b;
  e.M = grouped ? pb.M : pb.b;  // SUMMA: one group, no outer level
  e.bcast = {policy, o.sync};
  e.layout = layout;
  e.lookahead = lookahead > 0;
  e.share_inputs = o.share_inputs;
  e.max_outer_steps = o.max_steps;
  return e;
}

Setup make_setup(SummaOptions options) {
  Setup s;
  s.o = std::move(options);
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &s.rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &s.size));
  SummaOptions& o = s.o;
  SummaShapes shapes = check_summa_options(o, s.size);
  s.pb = shapes.problem;
  s.P = s.pb.P, s.Q = s.pb.Q;
  s.groups = std::move(shapes.groups);
  s.layout = o.common.layout.resolve(s.size);
  hsumma::validate(s.shape(false), s.size, s.engine_options(false, Policy::pure));
  for (const auto& ij : s.groups) hsumma::validate(s.shape(true, ij), s.size, s.engine_options(true, Policy::pure));
  return s;
}

// Rank 0 runs dgemm alone (the others sleep, so they steal no core) on its local C
// block with k' = min(k, 1024): the single-rank rate efficiency is measured against.
double reference_dgemm_gflops(const Setup& s) {
  const hsumma::LocalBlock c{hsumma::BlockCyclic1D::block(s.pb.m, s.P), hsumma::BlockCyclic1D::block(s.pb.n, s.Q), 0, 0};
  const std::int64_t rows = c.local_rows(), cols = c.local_cols(), kk = std::min<std::int64_t>(s.pb.k, 1024);
  double gflops = 0;
  if (s.rank == 0) {
    std::vector<double> a(rows * kk, 0.5), b(kk * cols, 0.25), out(rows * cols, 0.0);
    double best = 1e300;
    for (int rep = 0; rep < 4; ++rep) {
      const double t0 = MPI_Wtime();
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(cols),
                  static_cast<int>(kk), 1.0, a.data(), static_cast<int>(rows), b.data(), static_cast<int>(kk), 0.0,
                  out.data(), static_cast<int>(rows));
      if (rep > 0) best = std::min(best, MPI_Wtime() - t0);
    }
    gflops = 2.0 * rows * cols * kk / best * 1e-9;
  }
  MPI_Request request;
  HYMPI_CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &request));
  for (int done = 0; !done;) {
    HYMPI_CHECK_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (!done) usleep(500);
  }
  HYMPI_CHECK_MPI(MPI_Bcast(&gflops, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  return gflops;
}

}  // namespace hympi::apps
