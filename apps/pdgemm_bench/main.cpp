// hympi-pdgemm-bench: times ScaLAPACK's p?gemm_ (--precision s, d, c or z) on
// ordinary block-cyclic descriptors, exactly as a ScaLAPACK application calls
// it. Run it plain, then with hympi's drop-in preloaded
// (LD_PRELOAD=libhympi_scalapack.so) to compare: the binary does not change,
// only which p?gemm_ answers.
#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <complex>
#include <limits>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/blacs.h"
#include "hympi/error.hpp"
#include "hympi/grid.hpp"
#include "hympi/topology.hpp"
#include "problem_options.hpp"
#include "record.hpp"
#include "run_info.hpp"

extern "C" int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);

namespace {

// Per precision: ScaLAPACK's routine (complex data as (re, im) pairs of Real).
template <class T>
struct Type;
template <>
struct Type<float> {
  using Real = float;
  static constexpr auto call = psgemm_;
};
template <>
struct Type<double> {
  using Real = double;
  static constexpr auto call = pdgemm_;
};
template <>
struct Type<std::complex<float>> {
  using Real = float;
  static constexpr auto call = pcgemm_;
};
template <>
struct Type<std::complex<double>> {
  using Real = double;
  static constexpr auto call = pzgemm_;
};

double eighths(long x) {
  return static_cast<double>(x % 17 - 8) / 8;
}

// Entries a rank can recompute anywhere (the check needs no gather): multiples
// of 1/8 (complex: both parts), exact in every precision at the checked sizes.
template <class T>
T value(int which, long i, long j) {
  if constexpr (std::is_same_v<T, typename Type<T>::Real>)
    return static_cast<T>(eighths(i * 7 + j * 13 + which * 5));
  else
    return T(static_cast<typename Type<T>::Real>(eighths(i * 7 + j * 13 + which * 5)),
             static_cast<typename Type<T>::Real>(eighths(i * 11 + j * 3 + which * 7 + 4)));
}

// op(x) of one entry: transposed indices are the caller's; 'C' conjugates complex ones.
template <class T>
T op_value(char t, T x) {
  if constexpr (!std::is_same_v<T, typename Type<T>::Real>)
    if (t == 'C') return std::conj(x);
  return x;
}

template <class T>
struct Local {
  int desc[9];
  int rows, cols, lld;
  std::vector<T> data;
};

template <class T>
Local<T> distribute(int ctxt, int M, int N, int nb, int P, int Q, int myrow, int mycol, int which) {
  Local<T> x;
  const int zero = 0;
  x.rows = numroc_(&M, &nb, &myrow, &zero, &P);
  x.cols = numroc_(&N, &nb, &mycol, &zero, &Q);
  x.lld = std::max(1, x.rows);
  int info = 0;
  descinit_(x.desc, &M, &N, &nb, &nb, &zero, &zero, &ctxt, &x.lld, &info);
  x.data.assign(static_cast<std::size_t>(x.lld) * std::max(1, x.cols), T(0));
  for (int lj = 0; lj < x.cols; ++lj)
    for (int li = 0; li < x.rows; ++li) {
      const long gi = (long(li / nb) * P + myrow) * nb + li % nb, gj = (long(lj / nb) * Q + mycol) * nb + lj % nb;
      x.data[static_cast<std::size_t>(lj) * x.lld + li] = value<T>(which, gi, gj);
    }
  return x;
}

constexpr hympi::apps::AppInfo kApp{
    "hympi-pdgemm-bench",
    "Times ScaLAPACK p?gemm_ (--precision s, d, c, z) on block-cyclic descriptors (C = op(A) * op(B), square "
    "nb x nb blocks). Preload libhympi_scalapack.so to run the same calls through hympi's SUMMA/HSUMMA engine."};

struct Options {
  hympi::apps::ProblemOptions problem;  // -N (square problems only) and --grid
  int nb = 64, reps = 3, warmup = 1;
  std::string trans = "NN", precision = "d";
  bool check = false;
  hympi::apps::CommonOptions common;
  Options() { problem.size = 4096; }
};

void add_options(CLI::App& app, Options& o) {
  hympi::apps::add_problem_options(app, o.problem, hympi::apps::kProblemSize | hympi::apps::kProblemGrid);
  app.add_option("--nb", o.nb, "block size of the descriptors (ScaLAPACK's nb x nb blocks)")->check(CLI::PositiveNumber);
  app.add_option("--trans", o.trans, "TRANSA and TRANSB: C = op(A) * op(B) (C: conjugate transpose)")
      ->check(CLI::IsMember({"NN", "NT", "TN", "TT", "NC", "CN", "CC", "TC", "CT"}));
  app.add_option("--precision", o.precision, "s, d, c or z: psgemm_, pdgemm_, pcgemm_ or pzgemm_")
      ->check(CLI::IsMember({"s", "d", "c", "z"}));
  app.add_option("--reps", o.reps, "timed repetitions")->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup, "untimed repetitions first")->check(CLI::NonNegativeNumber);
  app.add_flag("--check", o.check, "check every local entry of C against its exact value (O(n) work per entry)");
  hympi::apps::add_common_options(app, o.common, "one row per run");
}

// The options' one check (CLI11 checks the other numbers): the size and the grid
// P x Q of the ranks (apps/common/problem_options.hpp), or hympi::Error(invalid_argument).
hympi::apps::Problem check_options(const Options& o, int comm_size) {
  const auto pb = hympi::apps::check_problem_options(o.problem, comm_size, hympi::apps::GridRanks::must_match);
  if (pb.n > std::numeric_limits<int>::max())
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "--size " + std::to_string(pb.n) + " exceeds ScaLAPACK's int");
  return pb;
}

// The drop-in's settings from the environment (HYMPI_PDGEMM*=...), sorted and
// joined by ';', for the CSV: a preloaded row says how hympi was configured.
std::string dropin_settings() {
  std::vector<std::string> found;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("HYMPI_PDGEMM", 0) == 0) found.emplace_back(*e);
  std::sort(found.begin(), found.end());
  std::string joined;
  for (const std::string& f : found) joined += (joined.empty() ? "" : ";") + f;
  return joined;
}

template <class T>
int run_in(Options& o) {
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const hympi::apps::Problem pb = check_options(o, size);
  const int n = static_cast<int>(pb.n), nb = o.nb, P = pb.P, Q = pb.Q;
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size));
  const auto info = hympi::apps::gather_run_info(topo);
  const std::string settings = dropin_settings();
  double phases[5] = {0, 0, 0, 0, 0};  // staging, scale, panels, gemm, total: seconds over the timed calls
  const auto record = [&](const char* impl, double best, double median, double gflops, const char* verdict) {
    hympi::apps::Record r;
    r.add("impl", impl).add("precision", o.precision).add("n", n).add("nb", nb);
    r.add("grid", std::to_string(P) + "x" + std::to_string(Q));
    r.add("trans", o.trans);
    return r.add("reps", o.reps)
        .add("best_s", best)
        .add("median_s", median)
        .add("gflops", gflops)
        .add("check", verdict)
        // The drop-in's phases, mean per timed call on the slowest rank (0 when ScaLAPACK answered).
        .add("staging_s", phases[0])
        .add("scale_c_s", phases[1])
        .add("panels_s", phases[2])
        .add("gemm_s", phases[3])
        .add("in_hympi_s", phases[4])
        .add("dropin_settings", settings);
  };
  auto csv = hympi::apps::RecordCsv::open(MPI_COMM_WORLD, o.common.csv, record("", 0, 0, 0, ""), &info);
  int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
  std::vector<int> map(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) map[static_cast<std::size_t>(r)] = r;  // column-major map of ranks: r = i + j * P
  Cblacs_gridmap(&ctxt, map.data(), P, P, Q);
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  auto A = distribute<T>(ctxt, n, n, nb, P, Q, myrow, mycol, 0),
       B = distribute<T>(ctxt, n, n, nb, P, Q, myrow, mycol, 1);
  auto C = distribute<T>(ctxt, n, n, nb, P, Q, myrow, mycol, 2);
  const char ta = o.trans[0], tb = o.trans[1];
  const int one = 1;
  const T alpha(1), beta(0);
  using Real = typename Type<T>::Real;
  const auto r_ = [](const T* p) { return reinterpret_cast<const Real*>(p); };
  // The drop-in's phase clocks, when it answers (looked up: the binary never links it).
  using PhaseFn = void (*)(char, double*, double*, double*, double*, double*);
  const auto phase_fn = reinterpret_cast<PhaseFn>(dlsym(RTLD_DEFAULT, "hympi_pgemm_phase_seconds"));
  const auto read_phases = [&](double sign) {
    double now[5] = {0, 0, 0, 0, 0};
    if (phase_fn) phase_fn(o.precision[0], &now[0], &now[1], &now[2], &now[3], &now[4]);
    for (int i = 0; i < 5; ++i) phases[i] += sign * now[i];
  };
  std::vector<double> times;
  for (int r = 0; r < o.warmup + o.reps; ++r) {
    if (r == o.warmup) read_phases(-1);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    Type<T>::call(&ta, &tb, &n, &n, &n, r_(&alpha), r_(A.data.data()), &one, &one, A.desc, r_(B.data.data()), &one,
                  &one, B.desc, r_(&beta), reinterpret_cast<Real*>(C.data.data()), &one, &one, C.desc);
    MPI_Barrier(MPI_COMM_WORLD);
    if (r >= o.warmup) times.push_back(MPI_Wtime() - t0);
  }
  read_phases(1);
  long bad = 0;
  if (o.check)
    for (int lj = 0; lj < C.cols; ++lj)
      for (int li = 0; li < C.rows; ++li) {
        const long gi = (long(li / nb) * P + myrow) * nb + li % nb, gj = (long(lj / nb) * Q + mycol) * nb + lj % nb;
        T want(0);
        for (long p = 0; p < n; ++p)
          want += (ta == 'N' ? value<T>(0, gi, p) : op_value(ta, value<T>(0, p, gi))) *
                  (tb == 'N' ? value<T>(1, p, gj) : op_value(tb, value<T>(1, gj, p)));
        bad += C.data[static_cast<std::size_t>(lj) * C.lld + li] != want;
      }
  long bad_total = 0;
  HYMPI_CHECK_MPI(MPI_Allreduce(&bad, &bad_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  // Which pdgemm_ answered: the drop-in exports hympi_pdgemm_counts.
  const char* impl = dlsym(RTLD_DEFAULT, "hympi_pdgemm_counts") ? "hympi" : "scalapack";
  std::sort(times.begin(), times.end());
  const double best = times.front(), median = times[times.size() / 2];
  // Real flops: a complex multiply-add is 4 real ones.
  const double flops_per_madd = std::is_same_v<T, Real> ? 2.0 : 8.0;
  const double gflops = flops_per_madd * n * double(n) * n / best / 1e9;
  const char* verdict = o.check ? (bad_total ? "failed" : "ok") : "none";
  if (rank == 0)
    std::printf("p%sgemm %-9s %s n=%d nb=%d grid=%dx%d: best %.3f s, median %.3f s, %.1f GFLOP/s%s\n",
                o.precision.c_str(), impl, o.trans.c_str(), n, nb, P, Q, best, median, gflops,
                o.check ? (bad_total ? ", CHECK FAILED" : ", check ok") : "");
  if (phase_fn) {  // mean per call over the timed calls, the slowest rank's
    HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, phases, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    for (double& p : phases) p /= o.reps;
    if (rank == 0)
      std::printf(
          "  phases per call (max over ranks): staging %.3f s, scale C %.3f s, panels (pack, broadcast, "
          "wait) %.3f s, GEMM %.3f s, other %.3f s, in hympi %.3f s\n",
          phases[0], phases[1], phases[2], phases[3],
          std::max(0.0, phases[4] - phases[0] - phases[1] - phases[2] - phases[3]), phases[4]);
  }
  csv.write(record(impl, best, median, gflops, verdict));
  Cblacs_gridexit(ctxt);
  if (rank == 0 && bad_total) std::fprintf(stderr, "%s: check FAILED: %ld wrong entries\n", kApp.name, bad_total);
  return bad_total ? hympi::apps::kCheckFailed : hympi::apps::kSuccess;
}

int run(Options& o) {
  switch (o.precision[0]) {
    case 's':
      return run_in<float>(o);
    case 'c':
      return run_in<std::complex<float>>(o);
    case 'z':
      return run_in<std::complex<double>>(o);
    default:
      return run_in<double>(o);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
