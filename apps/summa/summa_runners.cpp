#include "summa_runners.hpp"

#include <algorithm>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/hsumma/checks.hpp"
#include "pdgemm_runner.hpp"

namespace hympi::apps {

namespace {

using hsumma::LocalBlock;

Sample reduce_max(const hsumma::Timings& t, int batch) {
  double local[4] = {t.total, t.bcast, t.sync, t.dgemm}, global[4];
  HYMPI_CHECK_MPI(MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  long long counts[2] = {t.outer_bcasts, t.inner_bcasts}, gcounts[2];
  HYMPI_CHECK_MPI(MPI_Allreduce(counts, gcounts, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
  return {global[0] / batch, global[1] / batch,  global[2] / batch,
          global[3] / batch, gcounts[0] / batch, gcounts[1] / batch};
}

bool wants(SummaCheck check, SummaCheck kind) {
  return check == kind || check == SummaCheck::all;
}

// Norms, residual and serial checks for any layout; `pdgemm_ref` adds the
// comparison with PDGEMM on the same arrays (engine layout only; `shape` maps grid
// positions to ranks exactly as the engine did).
Checks run_checks(const Setup& s, const TwoLevelShape& shape, const LocalBlock& ab, const double* A,
                  const LocalBlock& bb, const double* B, const LocalBlock& cb, const double* C, bool pdgemm_ref) {
  Checks checks;
  if (s.o.check == SummaCheck::none) return checks;
  const double na = hsumma::frobenius_norm(MPI_COMM_WORLD, ab, A), nb = hsumma::frobenius_norm(MPI_COMM_WORLD, bb, B);
  if (wants(s.o.check, SummaCheck::residual))
    checks.add(SummaCheck::residual, hsumma::check_residual(MPI_COMM_WORLD, ab, A, bb, B, cb, C, na, nb));
  if (wants(s.o.check, SummaCheck::serial))
    checks.add(SummaCheck::serial, hsumma::check_serial(MPI_COMM_WORLD, cb, C, s.pb.k, s.o.seed, s.o.seed + 1, na, nb));
  if (pdgemm_ref && wants(s.o.check, SummaCheck::pdgemm)) {
    PdgemmRunner ref(MPI_COMM_WORLD, shape, s.pb.m, s.pb.n, s.pb.k, 0);
    std::vector<double> c_ref(std::max<std::int64_t>(1, cb.ld() * cb.local_cols()));
    ref.multiply(A, B, c_ref.data());
    checks.add(SummaCheck::pdgemm, hsumma::check_same_layout(MPI_COMM_WORLD, cb, C, c_ref.data(), s.pb.k, na, nb));
  }
  return checks;
}

// The part every kernel shares: inputs from the seed, warm-up, `reps` timed batches
// (`time_batch` runs one and returns its Timings), the checks, the records.
template <class Kernel, class TimeBatch>
bool measure(const Setup& s, Reporter& out, const Variant& v, Kernel& kernel, const TwoLevelShape& shape,
             bool pdgemm_ref, TimeBatch time_batch) {
  const auto ab = kernel.a_block(), bb = kernel.b_block(), cb = kernel.c_block();
  const auto A = hsumma::fill_local(ab, s.o.seed), B = hsumma::fill_local(bb, s.o.seed + 1);
  std::vector<double> C(std::max<std::int64_t>(1, cb.ld() * cb.local_cols()));
  out.header(v);
  for (int i = 0; i < s.o.warmup; ++i) kernel.multiply(A.data(), B.data(), C.data());
  for (int rep = 0; rep < s.o.reps; ++rep) {
    HYMPI_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    out.sample(v, rep, reduce_max(time_batch(A.data(), B.data(), C.data()), s.o.batch));
  }
  const Checks checks = run_checks(s, shape, ab, A.data(), bb, B.data(), cb, C.data(), pdgemm_ref);
  out.finish(checks);
  return checks.ok;
}

}  // namespace

bool run_engine(const Setup& s, Reporter& out, Variant v) {
  hsumma::Engine engine(MPI_COMM_WORLD, s.shape(v.grouped, {v.I, v.J}),
                        s.engine_options(v.grouped, v.policy, v.lookahead));
  for (const auto& step : engine.schedule()) v.k_run += step.panel.width();
  // A batch runs back to back (the multiplies pipeline into each other, as in an
  // application loop); its time ends at one closing barrier.
  return measure(s, out, v, engine, engine.grid().shape(), true, [&](const double* A, const double* B, double* C) {
    hsumma::Timings sum;
    const double start = MPI_Wtime();
    for (int i = 0; i < s.o.batch; ++i) {
      const auto t = engine.multiply(A, B, C, i + 1 == s.o.batch);
      sum.bcast += t.bcast, sum.sync += t.sync, sum.dgemm += t.dgemm;
      sum.outer_bcasts += t.outer_bcasts, sum.inner_bcasts += t.inner_bcasts;
    }
    sum.total = MPI_Wtime() - start;
    return sum;
  });
}

bool run_pdgemm(const Setup& s, Reporter& out, const Variant& v) {
  PdgemmRunner pd(MPI_COMM_WORLD, s.shape(false), s.pb.m, s.pb.n, s.pb.k, v.nb);
  return measure(s, out, v, pd, s.shape(false), false, [&](const double* A, const double* B, double* C) {
    hsumma::Timings sum;
    for (int i = 0; i < s.o.batch; ++i) sum.total += pd.multiply(A, B, C);
    return sum;
  });
}

}  // namespace hympi::apps
