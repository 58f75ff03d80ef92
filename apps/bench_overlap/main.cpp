// hympi-bench-overlap: how much computation a nonblocking allgather or allreduce
// hides, measured the way OSU's osu_iallgather / osu_iallreduce do. Per
// operation, size and variant:
//   t_comm    = start + wait with nothing between (the collective's own time)
//   t_total   = start + compute for t_comm + wait
//   overlap % = max(0, 100 - 100 * (t_total - t_compute) / t_comm)
// (100 % = the whole collective hidden behind the computation). Variants: MPI's own
// MPI_Iallgather / MPI_Iallreduce (sum) on private buffers ("mpi") and hympi's
// Allgatherv / Allreduce start/test/wait under the pure and hybrid policies;
// --polls N calls test() N times during the computation (OSU's -t), which lets
// the hybrid node exchange move on.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app.hpp"
#include "common_options.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"
#include "record.hpp"
#include "run_info.hpp"

using namespace hympi;

namespace {

constexpr apps::AppInfo kApp{
    "hympi-bench-overlap",
    "Overlap of a nonblocking allgather or allreduce with computation, OSU osu_iallgather/osu_iallreduce "
    "style: the share of the collective's time hidden behind computation of the same length. "
    "MPI_Iallgather/MPI_Iallreduce against hympi's Allgatherv/Allreduce start/test/wait (pure and hybrid, any "
    "number of leaders, optionally a progress thread). Prints a table; --csv appends rows.",
    "--progress-thread"};

struct Options {
  std::vector<std::string> ops = {"allgather"};
  std::vector<std::int64_t> sizes = {1, 64, 1024, 16384};  // doubles per rank
  std::vector<std::string> variants = {"mpi", "pure", "hybrid"};
  std::vector<int> polls = {0, 8};
  int leaders = 1;
  bool progress_thread = false;
  int iterations = 200;
  int warmup = 20;
  apps::CommonOptions common;
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("--ops", o.ops, "allgather (doubles per rank), allreduce (sum of doubles), comma separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"allgather", "allreduce"}))
      ->capture_default_str();
  app.add_option("--sizes", o.sizes, "Doubles per rank (allgather) or vector length (allreduce), comma separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--variants", o.variants,
                 "mpi (MPI_Iallgather / MPI_Iallreduce), pure, hybrid (hympi start/test/wait)")
      ->delimiter(',')
      ->check(CLI::IsMember({"mpi", "pure", "hybrid"}))
      ->capture_default_str();
  app.add_option("--polls", o.polls, "test() calls spread over the computation (OSU -t), comma separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--leaders", o.leaders, "Bridge ranks per node of the hybrid variant (0 = automatic)")
      ->capture_default_str();
  app.add_flag("--progress-thread", o.progress_thread,
               "The hybrid variant completes in a progress thread (CollectiveOptions::progress_thread; MPI is then "
               "initialised with MPI_THREAD_MULTIPLE)");
  app.add_option("-i,--iterations", o.iterations, "Timed iterations per point")->capture_default_str();
  app.add_option("-x,--warmup", o.warmup, "Untimed warm-up iterations per point")->capture_default_str();
  apps::add_common_options(app, o.common, "Append one row per size x variant x polls to this CSV file ('-' = stdout)");
}

std::string problem_of(const Options& o) {
  for (auto s : o.sizes)
    if (s < 1 || s > (std::int64_t{1} << 24))
      return "--sizes must be in [1, 16777216] doubles (got " + std::to_string(s) + ")";
  for (int p : o.polls)
    if (p < 0) return "--polls must be >= 0 (got " + std::to_string(p) + ")";
  if (o.leaders < 0) return "--leaders must be >= 0 (got " + std::to_string(o.leaders) + ")";
  if (o.iterations < 1) return "--iterations must be >= 1 (got " + std::to_string(o.iterations) + ")";
  if (o.warmup < 0) return "--warmup must be >= 0 (got " + std::to_string(o.warmup) + ")";
  if (o.ops.empty() || o.sizes.empty() || o.variants.empty() || o.polls.empty())
    return "--ops, --sizes, --variants and --polls need a value";
  return "";
}

// One nonblocking collective of `size` doubles, started and completed.
struct Exchange {
  virtual ~Exchange() = default;
  virtual void start() = 0;
  virtual bool test() = 0;
  virtual void wait() = 0;
};

struct MpiExchange final : Exchange {
  MpiExchange(MPI_Comm comm, bool reduce, std::int64_t size, int ranks)
      : comm_(comm),
        reduce_(reduce),
        count_(static_cast<int>(size)),
        mine_(size, 1.0),
        all_(reduce ? size : size * ranks) {}
  void start() override {
    if (reduce_)
      HYMPI_CHECK_MPI(MPI_Iallreduce(mine_.data(), all_.data(), count_, MPI_DOUBLE, MPI_SUM, comm_, &req_));
    else
      HYMPI_CHECK_MPI(MPI_Iallgather(mine_.data(), count_, MPI_DOUBLE, all_.data(), count_, MPI_DOUBLE, comm_, &req_));
  }
  bool test() override {
    int done = 0;
    HYMPI_CHECK_MPI(MPI_Test(&req_, &done, MPI_STATUS_IGNORE));
    return done != 0;
  }
  void wait() override { HYMPI_CHECK_MPI(MPI_Wait(&req_, MPI_STATUS_IGNORE)); }
  MPI_Comm comm_;
  bool reduce_;
  int count_;
  std::vector<double> mine_, all_;
  MPI_Request req_ = MPI_REQUEST_NULL;
};

// hympi's Allgatherv or Allreduce: the same slot / start / test / wait shape.
template <class Collective>
struct HympiExchange final : Exchange {
  HympiExchange(std::unique_ptr<Collective> c, std::int64_t size) : c_(std::move(c)), size_(size) {}
  void start() override {
    std::fill(c_->template slot_as<double>(), c_->template slot_as<double>() + size_, 1.0);
    c_->start();
  }
  bool test() override { return c_->test(); }
  void wait() override { c_->wait(); }
  std::unique_ptr<Collective> c_;
  std::int64_t size_;
};

std::unique_ptr<Exchange> make_exchange(const Topology& topo, const std::string& op, const std::string& variant,
                                        std::int64_t n, int leaders, bool progress_thread) {
  const bool reduce = op == "allreduce";
  if (variant == "mpi") return std::make_unique<MpiExchange>(topo.comm(), reduce, n, topo.size());
  CollectiveOptions options{variant == "pure" ? Policy::pure : Policy::hybrid, SyncKind::flags, false, leaders};
  options.progress_thread = progress_thread && variant == "hybrid";
  if (reduce)
    return std::make_unique<HympiExchange<Allreduce>>(Allreduce::create(topo, n, MPI_DOUBLE, MPI_SUM, options), n);
  return std::make_unique<HympiExchange<Allgatherv>>(Allgatherv::create_allgather(topo, n, sizeof(double), options), n);
}

// Busy computation for `seconds`, calling test() `polls` times at even intervals.
void compute(double seconds, int polls, Exchange& x) {
  const double t0 = MPI_Wtime();
  volatile double sink = 0;
  for (int p = 0; p <= polls; ++p) {
    const double until = t0 + seconds * (p + 1) / (polls + 1);
    while (MPI_Wtime() < until) sink = sink + 1e-9;
    if (p < polls) x.test();
  }
}

// Mean seconds per iteration of start [+ compute] + wait, averaged over ranks as OSU.
double timed(Exchange& x, MPI_Comm comm, int iterations, int warmup, double compute_s, int polls) {
  double sum = 0;
  for (int it = 0; it < warmup + iterations; ++it) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    x.start();
    if (compute_s > 0) compute(compute_s, polls, x);
    x.wait();
    if (it >= warmup) sum += MPI_Wtime() - t0;
  }
  double mean = sum / iterations, total = 0;
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  HYMPI_CHECK_MPI(MPI_Allreduce(&mean, &total, 1, MPI_DOUBLE, MPI_SUM, comm));
  return total / ranks;
}

int run(Options& o) {
  if (auto problem = problem_of(o); !problem.empty()) throw Error(ErrorCode::invalid_argument, problem);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Topology& topo = Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size));
  const apps::RunInfo info = apps::gather_run_info(topo);
  auto row = [&](const std::string& op, const std::string& variant, int polls, std::int64_t n, double comm_s,
                 double compute_s, double total_s, double overlap) {
    return apps::Record()
        .add("operation", "i" + op)
        .add("variant", variant)
        .add("leaders", variant == "hybrid" ? o.leaders : 0)
        .add("progress_thread", variant == "hybrid" && o.progress_thread ? 1 : 0)
        .add("polls", polls)
        .add("size_doubles", n)
        .add("size_bytes", n * 8)
        .add("iterations", o.iterations)
        .add("comm_us", comm_s * 1e6)
        .add("compute_us", compute_s * 1e6)
        .add("total_us", total_s * 1e6)
        .add("overlap_pct", overlap, 4);
  };
  auto csv = apps::RecordCsv::open(topo.comm(), o.common.csv, row("", "", 0, 0, 0, 0, 0, 0), &info);
  if (topo.rank() == 0) {
    std::printf("# hympi overlap of nonblocking collectives (OSU osu_iallgather / osu_iallreduce method)\n");
    std::printf("# Ranks: %d, nodes: %d, layout: %s%s\n", info.ranks, info.nodes, info.layout.c_str(),
                o.progress_thread ? ", hybrid with a progress thread" : "");
    std::printf("%-10s %-8s %-7s %9s %12s %12s %12s %10s\n", "operation", "variant", "polls", "bytes", "comm(us)",
                "compute(us)", "total(us)", "overlap%");
  }
  for (const auto& op : o.ops)
    for (auto n : o.sizes)
      for (const auto& variant : o.variants) {
        std::unique_ptr<Exchange> x = make_exchange(topo, op, variant, n, o.leaders, o.progress_thread);
        const double comm_s = timed(*x, topo.comm(), o.iterations, o.warmup, 0, 0);
        for (int polls : o.polls) {
          const double total_s = timed(*x, topo.comm(), o.iterations, o.warmup, comm_s, polls);
          const double overlap = std::max(0.0, 100.0 - 100.0 * (total_s - comm_s) / comm_s);
          csv.write(row(op, variant, polls, n, comm_s, comm_s, total_s, overlap));
          if (topo.rank() == 0)
            std::printf("%-10s %-8s %-7d %9lld %12.2f %12.2f %12.2f %10.1f\n", ("i" + op).c_str(), variant.c_str(),
                        polls, static_cast<long long>(n * 8), comm_s * 1e6, comm_s * 1e6, total_s * 1e6, overlap);
        }
      }
  return apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
