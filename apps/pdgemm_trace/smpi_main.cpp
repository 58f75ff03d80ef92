// hympi-smpi-pdgemm-skeleton (SMPI build only): ScaLAPACK's pdgemm_ schedule
// (pdgemm_schedule.hpp, the one the trace test checks against the real library) run
// under SimGrid: every ring message is a charged message of the simulated MPI layer
// (apps/smpi/glue/sim_p2p.hpp, the fidelity settings HSUMMA's skeleton runs under),
// every local DGEMM smpi_execute_flops of glue/sim_dgemm.cpp's charge for its shape,
// TN's and NT's partial sums MPI_Reduce on column / row communicators. --chunks S runs the first S
// chunks and scales the time to the whole call (step-limited scale runs); --trace
// writes what the ranks executed in the tracer's format (tests compare it). --marks adds
// one row per chunk (NN: the end of its DGEMM; slowest rank), step_basis=mark, so one
// run of S chunks gives the S/2- and S-chunk times of a slope (apps/smpi/run-fig49.sh).
#include <mpi.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "case_options.hpp"
#include "sim_groups.hpp"  // apps/smpi/glue
#include "sim_sink.hpp"

namespace {

using namespace hympi::pdgemm_skel;

// Rank 0 writes every rank's trace lines in rank order.
void write_trace(const std::string& mine, const std::string& path, int rank, int size) {
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), offs(static_cast<std::size_t>(size));
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int i = 0; i < size; ++i) offs[static_cast<std::size_t>(i)] = total, total += lens[static_cast<std::size_t>(i)];
  std::vector<char> all(static_cast<std::size_t>(total) + 1);
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "hympi-smpi-pdgemm-skeleton: error: cannot write %s\n", path.c_str());
    return;
  }
  std::fwrite(all.data(), 1, static_cast<std::size_t>(total), f);
  std::fclose(f);
}

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CLI::App app{"hympi-smpi-pdgemm-skeleton: ScaLAPACK's pdgemm_ schedule under SMPI (apps/pdgemm_trace/README.md)",
               "hympi-smpi-pdgemm-skeleton"};
  CaseOptions o;
  std::string trace;
  bool with_marks = false;
  add_case_options(app, o);
  app.add_option("--chunks", o.c.chunk_limit, "run only the first S chunks and scale the time (0 = all)");
  app.add_flag("--marks", with_marks, "also one row per chunk: the slowest rank's time at its end (step_basis=mark)");
  app.add_option("--trace", trace, "write the executed schedule in the tracer's format to this file");
  if (const int rc = parse_or_exit(app, argc, argv, "hympi-smpi-pdgemm-skeleton"); rc >= 0) {
    MPI_Finalize();
    return rc;
  }
  try {
    resolve(o);
    check(o.c);
    if (o.c.P * o.c.Q != size)
      throw std::invalid_argument("the grid " + o.grid + " has " + std::to_string(o.c.P * o.c.Q) +
                                  " ranks but MPI_COMM_WORLD has " + std::to_string(size));
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "hympi-smpi-pdgemm-skeleton: error: %s\n", e.what());
    MPI_Finalize();
    return 2;
  }
  const Case& c = o.c;
  std::ostringstream lines;
  double elapsed = 0, dgemm_s = 0;
  std::vector<double> marks;
  {
    std::vector<int> order(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) order[static_cast<std::size_t>(i)] = i;  // row-major grid on the world
    const std::vector<int>& ranks = hympi_sim::shared_ranks(std::move(order));  // one copy for every rank
    SimSink sink(c, rank, MPI_COMM_WORLD, ranks, trace.empty() ? nullptr : &lines);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    sink.begin();
    run(c, rank, sink);
    sink.end();
    elapsed = MPI_Wtime() - t0;
    dgemm_s = sink.dgemm_s;
    marks = sink.marks;
  }
  double worst[2] = {0, 0}, mine[2] = {elapsed, dgemm_s};
  MPI_Reduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (!trace.empty()) write_trace(lines.str(), trace, rank, size);
  // Every rank holding C marks every chunk; a rank with fewer marks (none of C) counts 0.
  long mark_count = static_cast<long>(marks.size()), most = 0;
  MPI_Allreduce(&mark_count, &most, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  marks.resize(static_cast<std::size_t>(most), 0.0);
  std::vector<double> worst_marks(marks.size());
  if (with_marks)
    MPI_Reduce(marks.data(), worst_marks.data(), static_cast<int>(marks.size()), MPI_DOUBLE, MPI_MAX, 0,
               MPI_COMM_WORLD);
  const long total = chunk_count(c);
  const long ran = c.chunk_limit > 0 ? std::min(c.chunk_limit, total) : total;
  if (rank == 0) {
    std::printf("alg,P,Q,M,N,K,nb,trans,kb,chunks,chunks_total,time_s,scaled_time_s,max_dgemm_s,dgemm_table,"
                "sim_sharing,sim_overheads,step_basis\n");
    const auto row = [&](long chunks, double time, double dgemm, const char* basis) {
      std::printf("pdgemm-skeleton,%d,%d,%ld,%ld,%ld,%d,%c%c,%d,%ld,%ld,%.9g,%.9g,%.9g,%s,%s,%s,%s\n", c.P, c.Q, c.M,
                  c.N, c.K, c.nb, c.transa, c.transb, c.kb, chunks, total, time, time * total / chunks, dgemm,
                  env_or("HYMPI_SMPI_DGEMM_TABLE", "flat"), env_or("HYMPI_SIM_SHARING", "legacy"),
                  env_or("HYMPI_SIM_OVERHEADS", "legacy"), basis);
    };
    if (with_marks)
      for (std::size_t s = 0; 2 * s + 1 < worst_marks.size(); ++s)
        row(static_cast<long>(s + 1), worst_marks[2 * s], worst_marks[2 * s + 1], "mark");
    row(ran, worst[0], worst[1], "end");  // last: the scripts and tests read the whole call's row there
  }
  MPI_Finalize();
  return 0;
}
