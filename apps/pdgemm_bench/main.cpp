// hympi-pdgemm-bench: times ScaLAPACK's pdgemm_ on ordinary block-cyclic
// descriptors, exactly as a ScaLAPACK application calls it. Run it plain, then
// with hympi's drop-in preloaded (LD_PRELOAD=libhympi_scalapack.so) to compare:
// the binary does not change, only which pdgemm_ answers.
#include <dlfcn.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "csv_writer.hpp"
#include "hympi/hsumma/scalapack.hpp"
#include "hympi/topology.hpp"
#include "run_info.hpp"

extern "C" int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);

namespace {

// Entries a rank can recompute anywhere (the check needs no gather): multiples of 1/8.
double value(int which, long i, long j) {
  return static_cast<double>((i * 7 + j * 13 + which * 5) % 17 - 8) / 8;
}

struct Local {
  int desc[9];
  int rows, cols, lld;
  std::vector<double> data;
};

Local distribute(int ctxt, int M, int N, int nb, int P, int Q, int myrow, int mycol, int which) {
  Local x;
  const int zero = 0;
  x.rows = numroc_(&M, &nb, &myrow, &zero, &P);
  x.cols = numroc_(&N, &nb, &mycol, &zero, &Q);
  x.lld = std::max(1, x.rows);
  int info = 0;
  descinit_(x.desc, &M, &N, &nb, &nb, &zero, &zero, &ctxt, &x.lld, &info);
  x.data.assign(static_cast<std::size_t>(x.lld) * std::max(1, x.cols), 0.0);
  for (int lj = 0; lj < x.cols; ++lj)
    for (int li = 0; li < x.rows; ++li) {
      const long gi = (long(li / nb) * P + myrow) * nb + li % nb, gj = (long(lj / nb) * Q + mycol) * nb + lj % nb;
      x.data[static_cast<std::size_t>(lj) * x.lld + li] = value(which, gi, gj);
    }
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CLI::App app{
      "Times ScaLAPACK pdgemm_ on block-cyclic descriptors (C = A * B, square nb x nb blocks). "
      "Preload libhympi_scalapack.so to run the same calls through hympi's SUMMA/HSUMMA engine."};
  int n = 4096, nb = 64, reps = 3, warmup = 1;
  std::string grid, csv;
  bool check = false;
  app.add_option("-n,--size", n, "m = n = k")->check(CLI::PositiveNumber);
  app.add_option("--nb", nb, "block size of the descriptors")->check(CLI::PositiveNumber);
  app.add_option("--grid", grid, "process grid PxQ (default 1 x ranks)");
  app.add_option("--reps", reps, "timed repetitions")->check(CLI::PositiveNumber);
  app.add_option("--warmup", warmup, "untimed repetitions first")->check(CLI::NonNegativeNumber);
  app.add_option("--csv", csv, "append one row per run to this CSV file ('-' = stdout)");
  app.add_flag("--check", check, "check every local entry of C against its exact value (O(n) work per entry)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
    MPI_Finalize();
    return code;
  }
  int P = 1, Q = size;
  char tail = 0;
  if (!grid.empty() && (std::sscanf(grid.c_str(), "%dx%d%c", &P, &Q, &tail) != 2 || P < 1 || Q < 1 || P * Q != size)) {
    if (rank == 0)
      std::fprintf(stderr, "hympi-pdgemm-bench: --grid %s must be PxQ with P*Q = %d ranks\n", grid.c_str(), size);
    MPI_Finalize();
    return 1;
  }
  const auto info = hympi::apps::gather_run_info(hympi::Topology::of(MPI_COMM_WORLD));
  int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
  std::vector<int> map(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) map[static_cast<std::size_t>(r)] = r;  // column-major map of ranks: r = i + j * P
  Cblacs_gridmap(&ctxt, map.data(), P, P, Q);
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  Local A = distribute(ctxt, n, n, nb, P, Q, myrow, mycol, 0), B = distribute(ctxt, n, n, nb, P, Q, myrow, mycol, 1);
  Local C = distribute(ctxt, n, n, nb, P, Q, myrow, mycol, 2);
  const char no = 'N';
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  std::vector<double> times;
  for (int r = 0; r < warmup + reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    pdgemm_(&no, &no, &n, &n, &n, &alpha, A.data.data(), &one, &one, A.desc, B.data.data(), &one, &one, B.desc, &beta,
            C.data.data(), &one, &one, C.desc);
    MPI_Barrier(MPI_COMM_WORLD);
    if (r >= warmup) times.push_back(MPI_Wtime() - t0);
  }
  long bad = 0;
  if (check)
    for (int lj = 0; lj < C.cols; ++lj)
      for (int li = 0; li < C.rows; ++li) {
        const long gi = (long(li / nb) * P + myrow) * nb + li % nb, gj = (long(lj / nb) * Q + mycol) * nb + lj % nb;
        double want = 0;
        for (long p = 0; p < n; ++p) want += value(0, gi, p) * value(1, p, gj);
        bad += C.data[static_cast<std::size_t>(lj) * C.lld + li] != want;
      }
  long bad_total = 0;
  MPI_Reduce(&bad, &bad_total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  // Which pdgemm_ answered: the drop-in exports hympi_pdgemm_counts.
  const char* impl = dlsym(RTLD_DEFAULT, "hympi_pdgemm_counts") ? "hympi" : "scalapack";
  std::sort(times.begin(), times.end());
  const double best = times.front(), median = times[times.size() / 2];
  const double gflops = 2.0 * n * double(n) * n / best / 1e9;
  if (rank == 0) {
    std::printf("pdgemm %-9s n=%d nb=%d grid=%dx%d: best %.3f s, median %.3f s, %.1f GFLOP/s%s\n", impl, n, nb, P, Q,
                best, median, gflops, check ? (bad_total ? ", CHECK FAILED" : ", check ok") : "");
    hympi::apps::CsvWriter out(csv, [] {
      auto cols = hympi::apps::run_info_columns();
      for (const char* c : {"impl", "n", "nb", "grid", "reps", "best_s", "median_s", "gflops", "check"})
        cols.push_back(c);
      return cols;
    }());
    if (out.enabled()) {
      auto row = hympi::apps::run_info_fields(info);
      for (const std::string& f :
           {std::string(impl), std::to_string(n), std::to_string(nb), grid.empty() ? "1x" + std::to_string(size) : grid,
            std::to_string(reps), hympi::apps::fmt(best), hympi::apps::fmt(median), hympi::apps::fmt(gflops),
            std::string(check ? (bad_total ? "failed" : "ok") : "none")})
        row.push_back(f);
      out.row(row);
    }
  }
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return bad_total ? 1 : 0;
}
