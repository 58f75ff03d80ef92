#include "overlap_loop.hpp"

#include "hympi/error.hpp"

namespace hympi::overlap {

namespace {
// Busy computation for `seconds`, calling test() `polls` times at even intervals.
void compute(double seconds, int polls, PersistentCollective& collective) {
  const double t0 = MPI_Wtime();
  volatile double sink = 0;
  for (int p = 0; p <= polls; ++p) {
    const double until = t0 + seconds * (p + 1) / (polls + 1);
    while (MPI_Wtime() < until) sink = sink + 1e-9;
    if (p < polls) collective.test();
  }
}
}  // namespace

Timing timed(PersistentCollective& collective, const OverlapData& data, MPI_Comm comm, int iterations, int warmup,
             double compute_s, int polls, bench::CacheEvictor* evictor) {
  double sum = 0;
  const int last = warmup + iterations - 1;
  for (int it = 0; it <= last; ++it) {
    if (evictor) evictor->evict();
    data.write(collective.slot_as<double>(), it);
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    collective.start();
    if (compute_s > 0) compute(compute_s, polls, collective);
    collective.wait();
    if (it >= warmup) sum += MPI_Wtime() - t0;
  }
  const double mean = sum / iterations;
  const std::int64_t wrong = data.wrong(collective.result_as<double>(), last);
  Timing total;
  HYMPI_CHECK_MPI(MPI_Allreduce(&mean, &total.seconds, 1, MPI_DOUBLE, MPI_SUM, comm));
  HYMPI_CHECK_MPI(MPI_Allreduce(&wrong, &total.wrong, 1, MPI_INT64_T, MPI_SUM, comm));
  int ranks = 1;
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &ranks));
  total.seconds /= ranks;
  return total;
}

}  // namespace hympi::overlap
