// hympi-bench-overlap: how much computation a nonblocking allgather or allreduce
// hides, measured the way OSU's osu_iallgather / osu_iallreduce do. Per
// operation, size and variant:
//   t_comm    = start + wait with nothing between (the collective's own time)
//   t_total   = start + compute for t_comm + wait
//   overlap % = max(0, 100 - 100 * (t_total - t_compute) / t_comm)
// (100 % = the whole collective hidden behind the computation). Variants: MPI's own
// MPI_Iallgather / MPI_Iallreduce (sum) on private buffers ("mpi") and hympi's
// Allgatherv / Allreduce start/test/wait under the pure and hybrid policies, all
// driven through one loop over hympi's PersistentCollective (overlap_loop.hpp);
// --polls N calls test() N times during the computation (OSU's -t), which lets
// the hybrid node exchange move on. The last result of every point is checked:
// a wrong one makes the run exit 1 (apps/common/app.hpp).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "app.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "overlap_data.hpp"
#include "overlap_loop.hpp"
#include "overlap_options.hpp"
#include "overlap_report.hpp"
#include "overlap_variants.hpp"
#include "record.hpp"
#include "run_info.hpp"

using namespace hympi;
using namespace hympi::overlap;

namespace {

constexpr apps::AppInfo kApp{
    "hympi-bench-overlap",
    "Overlap of a nonblocking allgather or allreduce with computation, OSU osu_iallgather/osu_iallreduce "
    "style: the share of the collective's time hidden behind computation of the same length. "
    "MPI_Iallgather/MPI_Iallreduce against hympi's Allgatherv/Allreduce start/test/wait (pure and hybrid, any "
    "number of leaders, optionally a progress thread). Prints a table; --csv appends rows.",
    "--progress-thread"};

// One operation x size x variant: the collective's own time, then the overlap
// at each poll count, printed and recorded. Returns the wrong result elements.
std::int64_t measure_point(const Topology& topo, const OverlapOptions& o, const std::string& op, std::int64_t n,
                           const std::string& variant, apps::RecordCsv& csv, bench::CacheEvictor* evictor) {
  auto collective = make_collective(topo, op, variant, n, o);
  const OverlapData data(op == "allreduce", n, topo.rank(), topo.size());
  const Timing comm = timed(*collective, data, topo.comm(), o.iterations, o.warmup, 0, 0, evictor);
  std::int64_t wrong = comm.wrong;
  for (int polls : o.polls) {
    const Timing total = timed(*collective, data, topo.comm(), o.iterations, o.warmup, comm.seconds, polls, evictor);
    wrong += total.wrong;
    Row row;
    row.op = op;
    row.variant = variant;
    row.leaders = variant == "hybrid" ? o.leaders : 0;
    row.progress_thread = variant == "hybrid" && o.progress_thread;
    row.polls = polls;
    row.size = n;
    row.iterations = o.iterations;
    row.comm_s = row.compute_s = comm.seconds;  // computation as long as the collective
    row.total_s = total.seconds;
    row.overlap_pct = overlap_pct(row.comm_s, row.compute_s, row.total_s);
    row.cache = o.cache;
    row.evict_bytes = evictor ? evictor->bytes_per_pass() : 0;
    csv.write(record(row));
    if (topo.rank() == 0) print_row(row);
  }
  return wrong;
}

int run(OverlapOptions& o) {
  check_overlap_options(o);
  int size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const Topology& topo = Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size));
  const apps::RunInfo info = apps::gather_run_info(topo);
  auto csv = apps::RecordCsv::open(topo.comm(), o.common.csv, record(Row{}), &info);
  if (topo.rank() == 0) print_header(info, o.progress_thread);

  std::unique_ptr<bench::CacheEvictor> evictor;
  if (o.cache == "cold") evictor = std::make_unique<bench::CacheEvictor>(MPI_COMM_WORLD);
  std::int64_t wrong = 0;
  for (const auto& op : o.ops)
    for (auto n : o.sizes)
      for (const auto& variant : o.variants) wrong += measure_point(topo, o, op, n, variant, csv, evictor.get());
  if (wrong && topo.rank() == 0)
    std::fprintf(stderr, "%s: check FAILED: %lld wrong result elements\n", kApp.name, static_cast<long long>(wrong));
  return wrong ? apps::kCheckFailed : apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return apps::run_app<OverlapOptions>(argc, argv, kApp, add_overlap_options, run);
}
