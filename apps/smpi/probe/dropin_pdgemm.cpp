// hympi-smpi-dropin-pdgemm: the drop-in pdgemm_ (hsumma/scalapack, ScaLAPACK's interface and
// descriptors, run by the SUMMA/HSUMMA engine) called as a ScaLAPACK program calls it, under SMPI,
// for thesis Fig 4.9 at scale (issue 51). A BLACS grid and nb x nb block-cyclic descriptors (the
// SMPI glue's BLACS, scalapack_stubs.cpp), then C = A * B + C (NN, alpha = beta = 1) with
// m = n = N and k = the first K panels of nb: a step-limited call is a thinner product, whose
// panels are the full call's first ones (block s of k lies on grid row/column s mod P/Q).
// Per groups entry: one warm-up call (k = nb: the drop-in's grid, engine and panel buffers are
// made there, once per program as in an application), then k = S/4, S/2, S panels, each between barriers;
// fig49_rows.py extrapolates the full call from the slope of the last two and checks it with the
// first. The drop-in's settings come from HYMPI_PDGEMM_* (its README). Matrices are one
// process-wide block (payloads are not read; the DGEMMs are charged, glue/sim_dgemm.cpp).
#include <mpi.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "fold_blocks.hpp"  // apps/smpi/glue
#include "hympi/blacs.h"
#include "hympi/hsumma/distribution.hpp"
#include "hympi/pdgemm.h"

namespace {

constexpr const char* kName = "hympi-smpi-dropin-pdgemm";

struct Options {
  int P = 0, Q = 0;
  long long n = 0, nb = 256, steps = 8;
  std::string csv, groups = "1x1";
  std::vector<std::string> set;  // KEY=VALUE for hympi_pdgemm_set, in order
  bool help = false;
};

const char* kUsage =
    "usage: smpirun ... hympi-smpi-dropin-pdgemm --grid PxQ -N N [--nb NB] [--steps S] [--groups LIST]\n"
    "       [--set KEY=VALUE]... [--csv FILE]\n"
    "The drop-in pdgemm_ (hsumma/scalapack) under SMPI: C = A * B + C (NN) on nb x nb block-cyclic\n"
    "descriptors of a P x Q BLACS grid; a warm-up call of k = NB, then k = S/4, S/2, S panels of NB\n"
    "(a mark each: the slowest rank's time between barriers), for each groups entry in turn.\n"
    "Settings: HYMPI_PDGEMM_*, then --set (hympi_pdgemm_set), then groups = each entry.\n"
    "  --grid PxQ   the BLACS grid (P x Q = ranks)\n"
    "  -N N         m = n = N; each call's k is its panels x NB\n"
    "  --nb NB      block size of every descriptor               (default 256)\n"
    "  --steps S    panels of the longest call, a multiple of 4 (default 8; S * NB <= N)\n"
    "  --groups LIST comma list of IxJ, the drop-in's groups (1x1: SUMMA)   (default 1x1)\n"
    "  --set K=V    a drop-in setting (policy=pure, lookahead=off, ...); repeatable\n"
    "  --csv FILE   the rows (header + one per call); default stdout\n"
    "  -h           this text (under smpirun: SimGrid takes --help)\n"
    "Exit codes: 0 done, 2 bad usage (message on stderr).\n";

bool number(const char* text, long long& out) {
  char* end = nullptr;
  out = std::strtoll(text, &end, 10);
  return *text && !*end && out > 0;
}

std::string parse(int argc, char** argv, int ranks, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") return o.help = true, "";
    if (i + 1 >= argc) return "unknown option or missing value: '" + arg + "'";
    const char* v = argv[++i];
    if (arg == "--grid") {
      if (std::sscanf(v, "%dx%d", &o.P, &o.Q) != 2 || o.P < 1 || o.Q < 1) return "--grid must be PxQ";
    } else if (arg == "-N") {
      if (!number(v, o.n)) return "-N must be a positive integer";
    } else if (arg == "--nb") {
      if (!number(v, o.nb)) return "--nb must be a positive integer";
    } else if (arg == "--steps") {
      if (!number(v, o.steps)) return "--steps must be a positive integer";
    } else if (arg == "--groups") {
      o.groups = v;
    } else if (arg == "--set") {
      if (!std::strchr(v, '=')) return "--set needs KEY=VALUE, got '" + std::string(v) + "'";
      o.set.push_back(v);
    } else if (arg == "--csv") {
      o.csv = v;
    } else {
      return "unknown option '" + arg + "' (-h lists them)";
    }
  }
  if (static_cast<long long>(o.P) * o.Q != ranks) return "--grid PxQ must have the simulation's ranks";
  if (o.n < 1) return "-N is required";
  if (o.steps % 4) return "--steps must be a multiple of 4 (marks at S/4, S/2, S)";
  if (o.steps * o.nb > o.n) return "--steps x --nb exceeds N";
  return "";
}

// ScaLAPACK's numroc, from the engine's block-cyclic arithmetic (source 0).
long long numroc(long long n, long long nb, int proc, int nprocs) {
  return hympi::hsumma::BlockCyclic1D{n, nb, nprocs}.local_size(proc);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options o;
  const std::string error = parse(argc, argv, ranks, o);
  if (o.help || !error.empty()) {
    if (rank == 0) {
      if (o.help) std::fputs(kUsage, stdout);
      else std::fprintf(stderr, "%s: error: %s\n", kName, error.c_str());
    }
    MPI_Finalize();
    return o.help ? 0 : 2;
  }
  // The drop-in's settings (every rank alike, so every rank reaches the same verdict).
  std::vector<std::string> groups;
  std::string bad;
  for (const std::string& kv : o.set) {
    const std::size_t eq = kv.find('=');
    if (bad.empty() && hympi_pdgemm_set(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str()) != 0)
      bad = hympi_pdgemm_last_error();
  }
  {
    std::stringstream in(o.groups);
    std::string item;
    while (bad.empty() && std::getline(in, item, ',')) {
      int I = 0, J = 0;
      if (hympi_pdgemm_set("groups", item.c_str()) != 0) bad = hympi_pdgemm_last_error();
      // The drop-in shrinks groups that do not divide the grid (gcd): a row must say what ran.
      else if (std::sscanf(item.c_str(), "%dx%d", &I, &J) != 2 || o.P % I || o.Q % J)
        bad = "--groups " + item + " must be IxJ with I | P and J | Q";
      else groups.push_back(item);
    }
  }
  if (!bad.empty() || groups.empty()) {
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", kName, bad.empty() ? "--groups is empty" : bad.c_str());
    MPI_Finalize();
    return 2;
  }
  std::FILE* out = stdout;
  int opened = 1;
  if (rank == 0 && !o.csv.empty()) opened = (out = std::fopen(o.csv.c_str(), "w")) != nullptr;
  MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!opened) {
    if (rank == 0) std::fprintf(stderr, "%s: error: cannot write --csv %s\n", kName, o.csv.c_str());
    MPI_Finalize();
    return 2;
  }
  // The BLACS grid, row-major over the world (as Cblacs_gridinit "Row").
  int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
  {  // freed at once: every rank's map alive together is 4 bytes x p^2 of host memory
    std::vector<int> map(static_cast<std::size_t>(ranks));
    for (int r = 0; r < o.P; ++r)
      for (int c = 0; c < o.Q; ++c) map[static_cast<std::size_t>(r + c * o.P)] = r * o.Q + c;
    Cblacs_gridmap(&ctxt, map.data(), o.P, o.P, o.Q);
  }
  int nprow = 0, npcol = 0, myrow = 0, mycol = 0;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  const long long kmax = o.steps * o.nb;
  const long long rows = numroc(o.n, o.nb, myrow, o.P), cols = numroc(o.n, o.nb, mycol, o.Q);
  const long long a_cols = numroc(kmax, o.nb, mycol, o.Q), b_rows = numroc(kmax, o.nb, myrow, o.P);
  const std::size_t elements = static_cast<std::size_t>(
      std::max({rows * cols, rows * std::max(1LL, a_cols), std::max(1LL, b_rows) * cols, 1LL}));
  // A, B and C alike in one process-wide block (payloads are not read): SMPI_SHARED_MALLOC maps a
  // block per rank, whose pages count per rank (64 ranks, N = 16384: 2.3 GB; 256 ranks, N = 65536: killed).
  auto* data = static_cast<double*>(hympi_smpi_fold_block_for(elements * sizeof(double)));
  const int izero = 0, one = 1, nb = static_cast<int>(o.nb), n = static_cast<int>(o.n);
  const int ld_a = static_cast<int>(std::max(1LL, rows)), ld_b = static_cast<int>(std::max(1LL, b_rows));
  const double alpha = 1, beta = 1;  // beta = 1: no host pass over C (the scale is no simulated cost)
  double phase_before[5] = {0, 0, 0, 0, 0};
  const std::vector<long long> ks = {o.nb, kmax / 4, kmax / 2, kmax};
  std::string settings;
  for (const std::string& kv : o.set) settings += (settings.empty() ? "" : ";") + kv;
  if (rank == 0)
    std::fprintf(out, "app,P,Q,ranks,N,nb,groups,dropin_settings,steps,steps_total,time_s,dgemm_s,panels_s,staging_s,"
                      "handled,direct\n");
  for (std::size_t run = 0; run < groups.size() * ks.size(); ++run) {
    const std::size_t call = run % ks.size();
    if (call == 0) hympi_pdgemm_set("groups", groups[run / ks.size()].c_str());
    const int k = static_cast<int>(ks[call]);
    int da[9], db[9], dc[9], info = 0;
    descinit_(da, &n, &k, &nb, &nb, &izero, &izero, &ctxt, &ld_a, &info);
    descinit_(db, &k, &n, &nb, &nb, &izero, &izero, &ctxt, &ld_b, &info);
    descinit_(dc, &n, &n, &nb, &nb, &izero, &izero, &ctxt, &ld_a, &info);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    pdgemm_("N", "N", &n, &n, &k, &alpha, data, &one, &one, da, data, &one, &one, db, &beta, data, &one, &one, dc);
    MPI_Barrier(MPI_COMM_WORLD);
    double phase[5];
    hympi_pgemm_phase_seconds('d', &phase[0], &phase[1], &phase[2], &phase[3], &phase[4]);
    double mine[4] = {MPI_Wtime() - start, phase[3] - phase_before[3], phase[2] - phase_before[2],
                      phase[0] - phase_before[0]};
    std::copy(phase, phase + 5, phase_before);
    double worst[4];
    MPI_Reduce(mine, worst, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    long long handled = 0, passed = 0, errors = 0, direct = 0;
    hympi_pgemm_counts('d', &handled, &passed, &errors, &direct);
    if (rank == 0 && call > 0)  // the warm-up is not a mark
      std::fprintf(out, "dropin,%d,%d,%d,%lld,%lld,%s,%s,%lld,%lld,%.9g,%.9g,%.9g,%.9g,%lld,%lld\n", o.P, o.Q, ranks,
                   o.n, o.nb, groups[run / ks.size()].c_str(), settings.c_str(), ks[call] / o.nb, o.n / o.nb, worst[0],
                   worst[1], worst[2], worst[3], handled, direct);
    if (rank == 0) std::fflush(out);
  }
  if (rank == 0 && out != stdout) std::fclose(out);
  MPI_Finalize();
  return 0;
}
