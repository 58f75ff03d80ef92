#include "summa_run.hpp"

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "csv_writer.hpp"
#include "hympi/error.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/hsumma/matrix.hpp"
#include "hympi/summa/summa.hpp"
#include "hympi/topology.hpp"
#include "pdgemm_runner.hpp"
#include "run_info.hpp"

namespace hympi::apps {

namespace {

using hsumma::CheckResult;
using hsumma::LocalBlock;

struct Setup {
  SummaOptions o;
  int rank = 0, size = 1;
  int P = 1, Q = 1;
  std::vector<std::pair<int, int>> groups;  // HSUMMA's I x J, one variant each
  GridOrder order = GridOrder::row_major;
  LayoutSpec layout;
  // I x J groups (HSUMMA) or the plain grid (SUMMA, PDGEMM: 1 x 1).
  TwoLevelShape shape(bool grouped, std::pair<int, int> ij = {1, 1}) const {
    return grouped ? TwoLevelShape{P, Q, ij.first, ij.second, order, o.group_major}
                   : TwoLevelShape{P, Q, 1, 1, order, false};
  }
  hsumma::EngineOptions engine_options(bool grouped, Policy policy, int lookahead = 0) const {
    hsumma::EngineOptions e;
    e.m = o.m, e.n = o.n, e.k = o.k, e.b = o.b, e.M = grouped ? o.M : o.b;
    e.bcast = {policy, parse_sync(o.sync)};
    e.layout = layout;
    e.lookahead = lookahead > 0;
    e.share_inputs = o.share_inputs;
    e.max_outer_steps = o.max_steps;
    return e;
  }
};

// One repetition's numbers, already reduced (max over ranks) and per multiply.
struct Sample {
  double time = 0, bcast = 0, sync = 0, dgemm = 0;
  long long outer = 0, inner = 0;
};

Sample reduce_max(const hsumma::Timings& t, int batch) {
  double local[4] = {t.total, t.bcast, t.sync, t.dgemm}, global[4];
  HYMPI_CHECK_MPI(MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  long long counts[2] = {t.outer_bcasts, t.inner_bcasts}, gcounts[2];
  HYMPI_CHECK_MPI(MPI_Allreduce(counts, gcounts, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
  return {global[0] / batch, global[1] / batch,  global[2] / batch,
          global[3] / batch, gcounts[0] / batch, gcounts[1] / batch};
}

void validate_options(Setup& s) {
  SummaOptions& o = s.o;
  if (o.size != 0) o.m = o.n = o.k = o.size;
  if (o.M == 0) o.M = o.b;
  require(o.reps >= 1, "--reps must be >= 1");
  require(o.warmup >= 0, "--warmup must be >= 0");
  require(o.batch >= 1, "--batch must be >= 1");
  require(o.max_steps >= 0, "--max-steps must be >= 0");
  require(o.max_steps == 0 || o.check == "none",
          "--max-steps " + std::to_string(o.max_steps) + " leaves C incomplete: use --check none");
  require(o.max_steps == 0 || std::find(o.algorithms.begin(), o.algorithms.end(), "pdgemm") == o.algorithms.end(),
          "--max-steps applies to summa/hsumma only, not pdgemm");
  require(o.threads >= 1, "--threads must be >= 1");
  for (auto nb : o.pdgemm_nb) require(nb >= 0, "--pdgemm-nb must be >= 0 (0 = the engine's distribution)");
  std::tie(s.P, s.Q) = o.grid.empty() ? default_grid(s.size) : parse_pair(o.grid, "--grid");
  require(!o.groups.empty(), "--groups needs at least one IxJ");
  s.groups.clear();
  for (const auto& g : o.groups) s.groups.push_back(parse_pair(g, "--groups"));
  s.order = parse_grid_order(o.order);
  s.layout = o.layout.resolve();
  hsumma::validate(s.shape(false), s.size, s.engine_options(false, Policy::pure));
  for (const auto& ij : s.groups) hsumma::validate(s.shape(true, ij), s.size, s.engine_options(true, Policy::pure));
}

// Rank 0 runs dgemm alone (the others sleep, so they steal no core) on its local C
// block with k' = min(k, 1024): the single-rank rate efficiency is measured against.
double reference_dgemm_gflops(const Setup& s) {
  const LocalBlock c{hsumma::BlockCyclic1D::block(s.o.m, s.P), hsumma::BlockCyclic1D::block(s.o.n, s.Q), 0, 0};
  const std::int64_t rows = c.local_rows(), cols = c.local_cols(), kk = std::min<std::int64_t>(s.o.k, 1024);
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

std::vector<std::string> csv_columns() {
  std::vector<std::string> cols = {"algorithm",
                                   "policy",
                                   "sync",
                                   "lookahead",
                                   "shared_inputs",
                                   "m",
                                   "n",
                                   "k",
                                   "max_steps",
                                   "k_run",
                                   "P",
                                   "Q",
                                   "I",
                                   "J",
                                   "b",
                                   "M",
                                   "pdgemm_nb",
                                   "order",
                                   "group_major",
                                   "threads",
                                   "rep",
                                   "reps",
                                   "warmup",
                                   "batch",
                                   "time_s",
                                   "gflops",
                                   "bcast_s",
                                   "sync_s",
                                   "dgemm_s",
                                   "outer_bcasts",
                                   "inner_bcasts",
                                   "ref_dgemm_gflops",
                                   "efficiency",
                                   "check",
                                   "check_ratio"};
  for (auto& c : run_info_columns()) cols.push_back(c);
  return cols;
}

// What one algorithm variant is, for the output.
struct Variant {
  std::string algorithm, policy;
  bool grouped = false;
  std::int64_t nb = -1;    // pdgemm only
  int lookahead = 0;       // engine only
  int I = 1, J = 1;        // groups (hsumma only)
  std::int64_t k_run = 0;  // columns of k multiplied (engine with --max-steps); 0 = k
};

struct Checks {
  std::string label = "none";
  double worst_ratio = 0;
  bool ok = true;
  void add(const std::string& name, const CheckResult& r) {
    label = (label == "none" ? "" : label + "+") + name + (r.ok() ? ":ok" : ":FAIL");
    worst_ratio = std::max(worst_ratio, r.ratio());
    ok = ok && r.ok();
  }
};

bool wants(const std::string& check, const char* kind) {
  return check == kind || check == "all";
}

class Reporter {
 public:
  Reporter(const Setup& s, const RunInfo& info, double ref_gflops)
      : s_(s), info_(info), ref_(ref_gflops), csv_(s.rank == 0 ? CsvWriter(s.o.csv, csv_columns()) : CsvWriter()) {}

  void header(const Variant& v) const {
    if (s_.rank != 0) return;
    std::printf(
        "# %s policy=%s lookahead=%d m=%lld n=%lld k=%lld grid=%dx%d groups=%dx%d b=%lld M=%lld nb=%lld layout=%s\n",
        v.algorithm.c_str(), v.policy.c_str(), v.lookahead, (long long)s_.o.m, (long long)s_.o.n, (long long)s_.o.k,
        s_.P, s_.Q, v.I, v.J, (long long)s_.o.b, (long long)(v.grouped ? s_.o.M : s_.o.b), (long long)v.nb,
        info_.layout.c_str());
    std::printf("%-8s %-7s %4s %12s %9s %11s %11s %11s %7s\n", "alg", "policy", "rep", "time[s]", "GF/s", "bcast[s]",
                "sync[s]", "dgemm[s]", "eff");
    std::fflush(stdout);
  }

  double gflops(const Variant& v, double seconds) const {
    return 2.0 * s_.o.m * s_.o.n * (v.k_run > 0 ? v.k_run : s_.o.k) / seconds * 1e-9;
  }

  void sample(const Variant& v, int rep, const Sample& x) {
    const double gf = gflops(v, x.time), eff = ref_ > 0 ? gf / (ref_ * s_.size) : 0;
    if (s_.rank == 0) {
      std::printf("%-8s %-7s %4d %12.6f %9.2f %11.6f %11.6f %11.6f %6.1f%%\n", v.algorithm.c_str(), v.policy.c_str(),
                  rep, x.time, gf, x.bcast, x.sync, x.dgemm, 100 * eff);
      std::fflush(stdout);
    }
    pending_.push_back({v, rep, x});
  }

  // Writes the buffered rows once the check result is known.
  void finish(const Checks& checks) {
    if (s_.rank == 0 && checks.label != "none")
      std::printf("check: %s (worst error/bound = %.3g)\n", checks.label.c_str(), checks.worst_ratio);
    for (const auto& p : pending_) {
      if (!csv_.enabled()) break;
      const auto& o = s_.o;
      const double gf = gflops(p.v, p.x.time);
      std::vector<std::string> row = {p.v.algorithm,
                                      p.v.policy,
                                      p.v.algorithm == "pdgemm" ? "-" : o.sync,
                                      p.v.algorithm == "pdgemm" ? "-" : std::to_string(p.v.lookahead),
                                      p.v.policy == "hybrid" && o.share_inputs ? "1" : "0",
                                      std::to_string(o.m),
                                      std::to_string(o.n),
                                      std::to_string(o.k),
                                      std::to_string(o.max_steps),
                                      std::to_string(p.v.k_run > 0 ? p.v.k_run : o.k),
                                      std::to_string(s_.P),
                                      std::to_string(s_.Q),
                                      std::to_string(p.v.I),
                                      std::to_string(p.v.J),
                                      std::to_string(o.b),
                                      std::to_string(p.v.grouped ? o.M : o.b),
                                      std::to_string(p.v.nb),
                                      o.order,
                                      o.group_major ? "1" : "0",
                                      std::to_string(o.threads),
                                      std::to_string(p.rep),
                                      std::to_string(o.reps),
                                      std::to_string(o.warmup),
                                      std::to_string(o.batch),
                                      fmt(p.x.time, 9),
                                      fmt(gf, 6),
                                      fmt(p.x.bcast, 9),
                                      fmt(p.x.sync, 9),
                                      fmt(p.x.dgemm, 9),
                                      std::to_string(p.x.outer),
                                      std::to_string(p.x.inner),
                                      fmt(ref_, 6),
                                      fmt(ref_ > 0 ? gf / (ref_ * s_.size) : 0, 6),
                                      checks.label,
                                      fmt(checks.worst_ratio, 4)};
      for (auto& f : run_info_fields(info_)) row.push_back(f);
      csv_.row(row);
    }
    pending_.clear();
  }

 private:
  struct Pending {
    Variant v;
    int rep;
    Sample x;
  };
  const Setup& s_;
  const RunInfo& info_;
  double ref_;
  CsvWriter csv_;
  std::vector<Pending> pending_;
};

// Norms, residual and serial checks for any layout; `pdgemm_ref` adds the
// comparison with PDGEMM on the same arrays (engine layout only; `shape` maps grid
// positions to ranks exactly as the engine did).
Checks run_checks(const Setup& s, const TwoLevelShape& shape, const LocalBlock& ab, const double* A,
                  const LocalBlock& bb, const double* B, const LocalBlock& cb, const double* C, bool pdgemm_ref) {
  Checks checks;
  if (s.o.check == "none") return checks;
  const double na = hsumma::frobenius_norm(MPI_COMM_WORLD, ab, A), nb = hsumma::frobenius_norm(MPI_COMM_WORLD, bb, B);
  if (wants(s.o.check, "residual"))
    checks.add("residual", hsumma::check_residual(MPI_COMM_WORLD, ab, A, bb, B, cb, C, na, nb));
  if (wants(s.o.check, "serial"))
    checks.add("serial", hsumma::check_serial(MPI_COMM_WORLD, cb, C, s.o.k, s.o.seed, s.o.seed + 1, na, nb));
  if (pdgemm_ref && wants(s.o.check, "pdgemm")) {
    PdgemmRunner ref(MPI_COMM_WORLD, shape, s.o.m, s.o.n, s.o.k, 0);
    std::vector<double> c_ref(std::max<std::int64_t>(1, cb.ld() * cb.local_cols()));
    ref.multiply(A, B, c_ref.data());
    checks.add("pdgemm", hsumma::check_same_layout(MPI_COMM_WORLD, cb, C, c_ref.data(), s.o.k, na, nb));
  }
  return checks;
}

bool run_engine(const Setup& s, Reporter& out, Variant v) {
  const Policy policy = parse_policy(v.policy);
  hsumma::Engine engine(MPI_COMM_WORLD, s.shape(v.grouped, {v.I, v.J}),
                        s.engine_options(v.grouped, policy, v.lookahead));
  for (const auto& step : engine.schedule()) v.k_run += step.panel.width();
  const auto ab = engine.a_block(), bb = engine.b_block(), cb = engine.c_block();
  const auto A = hsumma::fill_local(ab, s.o.seed), B = hsumma::fill_local(bb, s.o.seed + 1);
  std::vector<double> C(std::max<std::int64_t>(1, cb.ld() * cb.local_cols()));
  out.header(v);
  for (int i = 0; i < s.o.warmup; ++i) engine.multiply(A.data(), B.data(), C.data());
  for (int rep = 0; rep < s.o.reps; ++rep) {
    // A batch runs back to back (the multiplies pipeline into each other, as in
    // an application loop); its time ends at one closing barrier.
    hsumma::Timings sum;
    HYMPI_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    const double start = MPI_Wtime();
    for (int i = 0; i < s.o.batch; ++i) {
      const auto t = engine.multiply(A.data(), B.data(), C.data(), i + 1 == s.o.batch);
      sum.bcast += t.bcast, sum.sync += t.sync, sum.dgemm += t.dgemm;
      sum.outer_bcasts += t.outer_bcasts, sum.inner_bcasts += t.inner_bcasts;
    }
    sum.total = MPI_Wtime() - start;
    out.sample(v, rep, reduce_max(sum, s.o.batch));
  }
  const Checks checks = run_checks(s, engine.grid().shape(), ab, A.data(), bb, B.data(), cb, C.data(), true);
  out.finish(checks);
  return checks.ok;
}

bool run_pdgemm(const Setup& s, Reporter& out, const Variant& v) {
  PdgemmRunner pd(MPI_COMM_WORLD, s.shape(false), s.o.m, s.o.n, s.o.k, v.nb);
  const auto ab = pd.a_block(), bb = pd.b_block(), cb = pd.c_block();
  const auto A = hsumma::fill_local(ab, s.o.seed), B = hsumma::fill_local(bb, s.o.seed + 1);
  std::vector<double> C(std::max<std::int64_t>(1, cb.ld() * cb.local_cols()));
  out.header(v);
  for (int i = 0; i < s.o.warmup; ++i) pd.multiply(A.data(), B.data(), C.data());
  for (int rep = 0; rep < s.o.reps; ++rep) {
    hsumma::Timings sum;
    HYMPI_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < s.o.batch; ++i) sum.total += pd.multiply(A.data(), B.data(), C.data());
    out.sample(v, rep, reduce_max(sum, s.o.batch));
  }
  const Checks checks = run_checks(s, s.shape(false), ab, A.data(), bb, B.data(), cb, C.data(), false);
  out.finish(checks);
  return checks.ok;
}

}  // namespace

int run_summa(SummaOptions options) {
  Setup s;
  s.o = std::move(options);
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &s.rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &s.size));
  validate_options(s);

  const RunInfo info = gather_run_info(Topology::of(MPI_COMM_WORLD, s.layout));
  const double ref = s.o.reference_dgemm ? reference_dgemm_gflops(s) : 0.0;
  if (s.rank == 0 && ref > 0) std::printf("# single-rank dgemm rate: %.2f GF/s\n", ref);
  Reporter out(s, info, ref);

  bool ok = true;
  for (const auto& alg : s.o.algorithms) {
    if (alg == "pdgemm") {
      for (auto nb : s.o.pdgemm_nb) ok = run_pdgemm(s, out, {alg, "-", false, nb}) && ok;
      continue;
    }
    // SUMMA once; HSUMMA once per group split (one process sweeps G: setup is paid once).
    const bool grouped = alg == "hsumma";
    const std::vector<std::pair<int, int>> splits = grouped ? s.groups : std::vector<std::pair<int, int>>{{1, 1}};
    for (const auto& ij : splits)
      for (const auto& policy : s.o.policies)
        for (int ahead : s.o.lookahead)
          ok = run_engine(s, out, {alg, policy, grouped, -1, ahead, ij.first, ij.second}) && ok;
  }
  if (!ok && s.rank == 0) std::fprintf(stderr, "hympi-summa: a correctness check FAILED\n");
  return ok ? 0 : 1;
}

}  // namespace hympi::apps
