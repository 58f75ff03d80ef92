// hympi-smpi-pdgemm-skeleton (SMPI build only): ScaLAPACK's pdgemm_ schedule
// (pdgemm_schedule.hpp, the one the trace test checks against the real library) run
// under SimGrid: every ring message is a charged message of the simulated MPI layer
// (apps/smpi/glue/sim_p2p.hpp, the fidelity settings HSUMMA's skeleton runs under),
// every local DGEMM smpi_execute_flops of glue/sim_dgemm.cpp's charge for its shape,
// TN's partial sums MPI_Reduce on column communicators. --chunks S runs the first S
// chunks and scales the time to the whole call (step-limited scale runs); --trace
// writes what the ranks executed in the tracer's format (tests compare it).
#include <mpi.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "case_options.hpp"
#include "sim_p2p.hpp"
#include "trace_sink.hpp"

extern "C" double hympi_smpi_dgemm_flops(long m, long n, long k);  // glue/sim_dgemm.cpp

namespace {

using namespace hympi::pdgemm_skel;
constexpr int kTag = 51;  // below the layer's own tags (sim_p2p.hpp)

class SimSink : public Sink {
 public:
  SimSink(const Case& c, int rank, char* buffer, std::ostream* trace)
      : c_(c), rank_(rank), buffer_(buffer), trace_(trace ? new TraceSink(*trace, rank) : nullptr) {
    // The column communicators of TN's reduces (BLACS' column scope), built from groups:
    // MPI_Comm_split is O(P) at one rank under SMPI (apps/smpi/README.md).
    if (c.transa == 'T' && c.P > 1) {
      MPI_Group world, column;
      MPI_Comm_group(MPI_COMM_WORLD, &world);
      std::vector<int> members(static_cast<std::size_t>(c.P));
      for (int r = 0; r < c.P; ++r) members[static_cast<std::size_t>(r)] = r * c.Q + rank % c.Q;
      MPI_Group_incl(world, c.P, members.data(), &column);
      MPI_Comm_create(MPI_COMM_WORLD, column, &column_);
      MPI_Group_free(&column);
      MPI_Group_free(&world);
    }
  }
  ~SimSink() override {
    if (column_ != MPI_COMM_NULL) MPI_Comm_free(&column_);
    delete trace_;
  }
  SimSink(const SimSink&) = delete;
  SimSink& operator=(const SimSink&) = delete;

  void send(int peer, long bytes, bool blocking) override {
    if (trace_) trace_->send(peer, bytes, blocking);
    hympi_sim::send(buffer_, static_cast<int>(bytes), MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
  }
  void recv(int peer, long bytes) override {
    if (trace_) trace_->recv(peer, bytes);
    hympi_sim::recv(buffer_, static_cast<int>(bytes), MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
  }
  void dgemm(char ta, char tb, long m, long n, long k) override {
    if (trace_) trace_->dgemm(ta, tb, m, n, k);
    const double t0 = MPI_Wtime();
    smpi_execute_flops(hympi_smpi_dgemm_flops(m, n, k));
    dgemm_s += MPI_Wtime() - t0;
  }
  void reduce(int root, int size, long bytes) override {
    if (trace_) trace_->reduce(root, size, bytes);
    const int count = static_cast<int>(bytes / 8);
    double* data = reinterpret_cast<double*>(buffer_);
    const int my_place = rank_ / c_.Q, root_place = root / c_.Q;
    MPI_Reduce(my_place == root_place ? MPI_IN_PLACE : data, data, count, MPI_DOUBLE, MPI_SUM, root_place, column_);
  }
  void begin() {
    if (trace_) trace_->begin(c_);
  }
  void end() {
    if (trace_) trace_->end();
  }
  double dgemm_s = 0;

 private:
  const Case& c_;
  int rank_;
  char* buffer_;
  TraceSink* trace_;
  MPI_Comm column_ = MPI_COMM_NULL;
};

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
  add_case_options(app, o);
  app.add_option("--chunks", o.c.chunk_limit, "run only the first S chunks and scale the time (0 = all)");
  app.add_option("--trace", trace, "write the executed schedule in the tracer's format to this file");
  try {
    app.parse(argc, argv);
    resolve(o);
    check(o.c);
    if (o.c.P * o.c.Q != size)
      throw std::invalid_argument("the grid " + o.grid + " has " + std::to_string(o.c.P * o.c.Q) +
                                  " ranks but MPI_COMM_WORLD has " + std::to_string(size));
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    MPI_Finalize();
    return code == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "hympi-smpi-pdgemm-skeleton: error: %s\n", e.what());
    MPI_Finalize();
    return 2;
  }
  const Case& c = o.c;
  // One shared scratch buffer (SMPI skips payload copies of shared memory): the largest message.
  const long cmp = (c.M + c.P - 1) / c.P + c.nb, cnq = (c.N + c.Q - 1) / c.Q + c.nb, kp = (c.K + c.P - 1) / c.P + c.nb;
  const long bytes = 8L * c.kb * std::max({cmp, cnq, kp});
  char* buffer = static_cast<char*>(SMPI_SHARED_MALLOC(static_cast<std::size_t>(bytes)));
  std::ostringstream lines;
  double elapsed = 0, dgemm_s = 0;
  {
    SimSink sink(c, rank, buffer, trace.empty() ? nullptr : &lines);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    sink.begin();
    run(c, rank, sink);
    sink.end();
    elapsed = MPI_Wtime() - t0;
    dgemm_s = sink.dgemm_s;
  }
  double worst[2] = {0, 0}, mine[2] = {elapsed, dgemm_s};
  MPI_Reduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (!trace.empty()) write_trace(lines.str(), trace, rank, size);
  SMPI_SHARED_FREE(buffer);
  const long total = chunk_count(c);
  const long ran = c.chunk_limit > 0 ? std::min(c.chunk_limit, total) : total;
  if (rank == 0) {
    std::printf("alg,P,Q,M,N,K,nb,trans,kb,chunks,chunks_total,time_s,scaled_time_s,max_dgemm_s,dgemm_table,"
                "sim_sharing,sim_overheads\n");
    std::printf("pdgemm-skeleton,%d,%d,%ld,%ld,%ld,%d,%c%c,%d,%ld,%ld,%.9g,%.9g,%.9g,%s,%s,%s\n", c.P, c.Q, c.M, c.N,
                c.K, c.nb, c.transa, c.transb, c.kb, ran, total, worst[0], worst[0] * total / ran, worst[1],
                env_or("HYMPI_SMPI_DGEMM_TABLE", "flat"), env_or("HYMPI_SIM_SHARING", "legacy"),
                env_or("HYMPI_SIM_OVERHEADS", "legacy"));
  }
  MPI_Finalize();
  return 0;
}
