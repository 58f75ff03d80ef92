// hympi-smpi-summa-skeleton: hympi-summa's pure-policy SUMMA/HSUMMA multiply reduced to
// its simulated costs, for scale runs (issue 41 item 2). What it keeps from the real app,
// in the app's order, because each of these moves the simulated time:
//   - the setup before the first multiply: the world's node topology (gather_run_info's
//     Topology::of) and the CSV verdict broadcast (RecordCsv::open); they leave the ranks
//     skewed as the app's do when they reach the first barrier;
//   - per multiply the engine's grid communicators (hympi::TwoLevelGrid: outer row, outer
//     column, inner row, inner column, built by their members), the argument agreements
//     of its broadcast objects' creation, its schedule
//     (hsumma_schedule, M >= b), a world barrier, then per outer step the engine's phase
//     order: outer A, outer B of M columns (only the ranks at the owner's place in their group),
//     then per inner step of b inner A, inner B (MPI_Bcast of the panel's count of 8-byte
//     elements from the owner's position) and the update as smpi_execute_flops of glue/sim_dgemm.cpp's charge for (mb, nb, b), a closing
//     world barrier and the app's two max-reductions of the times.
// What it drops: the matrices, the Bcast objects, the panel pipeline, CLI11 and the
// record machinery: none of them costs simulated time under the pure policy.
// Per step it also marks the simulated time (one run of S steps gives every step count's
// time: step_slope.py's slope from one run); the marks are reduced after the last multiply.
#include <mpi.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "hympi/grid.hpp"
#include "hympi/hsumma/distribution.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"
#include "agreement.hpp"  // lib/src: the length of a creation round (creation_agreement)
#include "summa_skeleton_options.hpp"

// The local update's charge by shape (glue/sim_dgemm.cpp, HYMPI_SMPI_DGEMM_TABLE), the one
// hympi-summa's cblas_dgemm and the PDGEMM skeleton pay: both kernels charged alike.
extern "C" double hympi_smpi_dgemm_flops(long m, long n, long k);

#include "root_csv.hpp"

namespace {

using hympi::skeleton::Options;
using hympi::skeleton::Variant;
constexpr const char* kName = "hympi-smpi-summa-skeleton";

// One multiply's numbers on this rank, as the engine's Timings count them.
struct Times {
  double total = 0, bcast = 0, sync = 0, dgemm = 0;
  long long outer = 0, inner = 0;
};
constexpr int kMarkFields = 3;  // per step: time since the start, cumulative bcast, cumulative dgemm

// The panel's broadcast where the communicator has someone to send to (the engine makes no
// Bcast object for a communicator of one rank); counts as posted.
int panel_bcast(void* buffer, std::int64_t count, int root, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (size == 1 || count == 0) return 0;
  MPI_Bcast(buffer, static_cast<int>(count), MPI_UINT64_T, root, comm);  // the core's 8-byte element type
  return 1;
}

// What creating the engine's broadcast object on `comm` sends (Bcast::create, lib/src/bcast.cpp):
// its one agreement round (lib/src/agreement.cpp): one MPI_Allreduce (MAX) of int64 holding the
// failure flag, then each agreed value and its negative: the options' items (every agreed row of
// the options table and groups=auto's machine), the capacity and the element size. On every
// communicator, also of one rank.
void creation_agreement(MPI_Comm comm) {
  const std::size_t values = hympi::detail::Agreement::options_items() + 2;  // + capacity, element size
  std::vector<std::int64_t> mine(1 + 2 * values, 0), all(mine.size());
  MPI_Allreduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_INT64_T, MPI_MAX, comm);
}

Times multiply(const Options& o, const Variant& v, const std::vector<hympi::hsumma::OuterStep>& schedule,
               void* buffer, std::vector<double>& marks) {
  const hympi::TwoLevelGrid grid(MPI_COMM_WORLD, {o.P, o.Q, v.I, v.J, hympi::GridOrder::row_major, false});
  // The engine's panel broadcasts are created in CheckerboardPanels' order: A outer, A inner, B outer, B inner.
  for (MPI_Comm comm : {grid.outer_row_comm(), grid.inner_row_comm(), grid.outer_col_comm(), grid.inner_col_comm()})
    creation_agreement(comm);
  const int gr = grid.shape().group_rows(), gc = grid.shape().group_cols();
  const std::int64_t rows = o.n / o.P, cols = o.n / o.Q;  // local rows of A and C, local columns of B and C
  Times t;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  double mark = start;
  auto lap = [&](double& bucket) {  // the engine's clock: one read per phase change
    const double now = MPI_Wtime();
    bucket += now - mark;
    mark = now;
  };
  lap(t.dgemm);
  for (const auto& step : schedule) {
    const auto& panel = step.panel;  // the outer panel (M wide), then its inner ones (b wide)
    if (grid.col_in_group() == panel.a_col % gc)
      t.outer += panel_bcast(buffer, rows * panel.width(), panel.a_col / gc, grid.outer_row_comm());
    if (grid.row_in_group() == panel.b_row % gr)
      t.outer += panel_bcast(buffer, panel.width() * cols, panel.b_row / gr, grid.outer_col_comm());
    for (const auto& inner : step.inner) {  // PanelPipeline without lookahead: inner A, inner B, update
      t.inner += panel_bcast(buffer, rows * inner.width(), panel.a_col % gc, grid.inner_row_comm());
      t.inner += panel_bcast(buffer, inner.width() * cols, panel.b_row % gr, grid.inner_col_comm());
      lap(t.bcast);
      smpi_execute_flops(hympi_smpi_dgemm_flops(rows, cols, inner.width()));  // the app's cblas_dgemm charge
      lap(t.dgemm);
    }
    marks.insert(marks.end(), {mark - start, t.bcast, t.dgemm});  // one mark per outer step
  }
  lap(t.bcast);
  MPI_Barrier(MPI_COMM_WORLD);
  const double barrier = MPI_Wtime() - mark;
  t.sync = barrier;
  t.total = mark + barrier - start;
  return t;
}

// The app's reduce_max: the slowest rank's times, then its counts (two world allreduces).
Times slowest(const Times& t) {
  double local[4] = {t.total, t.bcast, t.sync, t.dgemm}, global[4];
  MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  long long counts[2] = {t.outer, t.inner}, gcounts[2];
  MPI_Allreduce(counts, gcounts, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return {global[0], global[1], global[2], global[3], gcounts[0], gcounts[1]};
}

// The rows of one multiply (outer block M: SUMMA's is b): its barrier-closed time, then one per step
// mark (the marks have no sync time and no broadcast counts: those columns stay empty).
void write_rows(std::FILE* f, const Options& o, int ranks, const Variant& v, const Times& t, const double* marks,
                std::size_t steps, std::int64_t max_steps, std::int64_t M) {
  auto head = [&](const char* basis, std::int64_t shown_steps, std::size_t steps_run) {
    std::fprintf(f, "%s,pure,-,0,%lld,%lld,%lld,%lld,%lld,%d,%d,%d,%d,%lld,%lld,%d,%s", v.algorithm(),
                 static_cast<long long>(o.n), static_cast<long long>(o.n), static_cast<long long>(o.n),
                 static_cast<long long>(shown_steps), static_cast<long long>(steps_run) * M, o.P, o.Q, v.I, v.J,
                 static_cast<long long>(o.b), static_cast<long long>(M), ranks, basis);
  };
  head("barrier", max_steps, steps);
  std::fprintf(f, ",%.9g,%.9g,%.9g,%.9g,%lld,%lld\n", t.total, t.bcast, t.sync, t.dgemm, t.outer, t.inner);
  for (std::size_t s = 0; s < steps; ++s) {
    const double* m = marks + s * kMarkFields;
    head("mark", static_cast<std::int64_t>(s + 1), s + 1);
    std::fprintf(f, ",%.9g,%.9g,,%.9g,,\n", m[0], m[1], m[2]);
  }
}

int finish(int code) {
  MPI_Finalize();
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options o;
  const std::string error = hympi::skeleton::parse_options(argc, argv, ranks, o);
  if (o.help || !error.empty()) {
    if (rank == 0 && o.help) std::fputs(hympi::skeleton::usage().c_str(), stdout);
    if (rank == 0 && !o.help) std::fprintf(stderr, "%s: error: %s\n", kName, error.c_str());
    return finish(o.help ? 0 : 2);
  }
  // The app's setup, in its order (see the top): node topology, then the CSV verdict.
  hympi::Topology::of(MPI_COMM_WORLD, hympi::layout_from_env());
  std::FILE* csv = nullptr;
  if (!hympi_probe::open_root_csv(o.csv, kName, &csv)) return finish(2);

  // HSUMMA's schedule (outer steps of M) and SUMMA's: hympi-summa's summa is the SUMMA engine, whose
  // steps are b wide whatever M (its --max-steps then counts steps of b).
  auto schedule_of = [&](std::int64_t M) {
    auto s = hympi::hsumma::hsumma_schedule(o.n, o.P, o.Q, M, o.b);
    if (o.steps > 0 && o.steps < static_cast<std::int64_t>(s.size())) s.resize(static_cast<std::size_t>(o.steps));
    return s;
  };
  const auto hsumma = schedule_of(o.M), summa = schedule_of(o.b);
  const std::int64_t max_steps = o.steps > 0 && o.steps < o.n / o.M ? o.steps : 0;
  const std::size_t panel_bytes = static_cast<std::size_t>(std::max(o.n / o.P, o.n / o.Q) * o.M) * 8;
  void* buffer = SMPI_SHARED_MALLOC(panel_bytes);  // one block for every rank: payloads are not read

  std::vector<Times> times;
  std::vector<double> marks;  // per multiply, per step: kMarkFields values
  for (const Variant& v : o.variants) {
    const auto& schedule = v.summa ? summa : hsumma;
    times.push_back(slowest(multiply(o, v, schedule, buffer, marks)));
    if (rank == 0)
      std::printf("%-8s G=%-6d %dx%d steps=%zu time %.9g s bcast %.9g s dgemm %.9g s\n", v.algorithm(), v.I * v.J,
                  v.I, v.J, schedule.size(), times.back().total, times.back().bcast, times.back().dgemm);
    std::fflush(stdout);
  }
  // The step marks' slowest ranks, after every multiply (so they cost none of them time).
  std::vector<double> worst(marks.size());
  MPI_Reduce(marks.data(), worst.data(), static_cast<int>(marks.size()), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (csv) {
    std::fputs("algorithm,policy,sync,lookahead,m,n,k,max_steps,k_run,P,Q,I,J,b,M,ranks,step_basis,time_s,bcast_s,"
               "sync_s,dgemm_s,outer_bcasts,inner_bcasts\n",
               csv);
    const double* at = worst.data();
    for (std::size_t i = 0; i < o.variants.size(); ++i) {
      const bool summa_variant = o.variants[i].summa;
      const std::size_t steps = (summa_variant ? summa : hsumma).size();
      const std::int64_t shown = summa_variant ? (o.steps > 0 && o.steps < o.n / o.b ? o.steps : 0) : max_steps;
      write_rows(csv, o, ranks, o.variants[i], times[i], at, steps, shown, summa_variant ? o.b : o.M);
      at += steps * kMarkFields;
    }
    if (csv != stdout) std::fclose(csv);
  }
  SMPI_SHARED_FREE(buffer);
  return finish(0);
}
