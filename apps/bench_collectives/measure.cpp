#include "measure.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace hympi::bench {

namespace {
// OSU's percentile of the rank-averaged iteration latencies: element
// round(n * P / 100) - 1 of them sorted (times in seconds, the result in us).
void osu_tail_latencies(const std::vector<double>& times, MPI_Comm comm, int ranks, double (&tail_us)[3]) {
  std::vector<double> summed(times.size());
  MPI_Allreduce(times.data(), summed.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_SUM, comm);
  if (summed.empty()) return;
  std::sort(summed.begin(), summed.end());
  const double percentiles[3] = {50, 90, 99};
  for (int k = 0; k < 3; ++k) {
    const auto at = static_cast<std::ptrdiff_t>(std::lround(summed.size() * percentiles[k] / 100)) - 1;
    tail_us[k] = summed[static_cast<std::size_t>(std::max<std::ptrdiff_t>(at, 0))] * 1e6 / ranks;
  }
}
}  // namespace

Measurement measure(Operation& op, const Topology& topo, int iterations, int warmup, bool validate, WriteMode write,
                    CacheEvictor* evictor) {
  const MPI_Comm comm = topo.comm();
  const bool check = validate && op.checks_data();
  double timed = 0;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(iterations));
  std::int64_t errors = 0;
  const std::int64_t passes_before = evictor ? evictor->passes() : 0;
  MPI_Barrier(comm);
  for (int it = 0; it < warmup + iterations; ++it) {
    if (evictor) {
      evictor->evict();
      MPI_Barrier(comm);  // every rank starts timing with its caches evicted
    }
    if (check) op.prepare(it);  // untimed: new data every iteration
    if (write == WriteMode::untimed || (check && write == WriteMode::none)) op.write();  // new data: rewrite
    const double start = MPI_Wtime();
    if (write == WriteMode::timed) op.write();
    op.exchange();
    const double stop = MPI_Wtime();
    if (it >= warmup) {
      timed += stop - start;
      times.push_back(stop - start);
    }
    if (check) errors += op.errors(it);
    MPI_Barrier(comm);  // untimed, as OSU: no iteration overlaps the next
  }

  Measurement m;
  m.iterations = iterations;
  m.warmup = warmup;
  m.validated = check;
  m.timed_write = write == WriteMode::timed;
  if (evictor) {
    m.evict_bytes = evictor->bytes_per_pass();
    m.llc_bytes = evictor->llc_bytes();
    m.evictions = evictor->passes() - passes_before;
  }
  const double mine = iterations > 0 ? timed * 1e6 / iterations : 0.0;
  MPI_Allreduce(&mine, &m.min_us, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&mine, &m.max_us, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&mine, &m.avg_us, 1, MPI_DOUBLE, MPI_SUM, comm);
  m.avg_us /= topo.size();
  osu_tail_latencies(times, comm, topo.size(), m.tail_us);  // before nth_element reorders them
  double median = 0;
  if (!times.empty()) {
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    median = times[times.size() / 2] * 1e6;
  }
  MPI_Allreduce(&median, &m.median_us, 1, MPI_DOUBLE, MPI_SUM, comm);
  m.median_us /= topo.size();
  MPI_Allreduce(&errors, &m.errors, 1, MPI_INT64_T, MPI_SUM, comm);
  m.result_doubles = op.result_elements();
  const unsigned long long bytes = op.bytes_per_node();
  unsigned long long max_bytes = 0;
  MPI_Allreduce(&bytes, &max_bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  m.bytes_per_node = static_cast<std::size_t>(max_bytes);
  return m;
}

}  // namespace hympi::bench
