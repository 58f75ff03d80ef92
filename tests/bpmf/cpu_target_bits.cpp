// Prints a digest of short BPMF chains on one rank: the test cpu_target_bits builds
// this program for the host's CPU target and for the x86-64 baseline and runs it
// with and without the C library's FMA functions; the digests must agree (the
// sampler's bits depend on neither the CPU target nor the host: bpmf/README.md).
// The chains reach every kind of arithmetic the sampler does: low-rank and dense
// items, items with ~1000 ratings (long sums), K = 128 (Eigen's blocked Cholesky and
// triangular solves), the Normal-Wishart draw (normals and chi-squares: log, sin, cos).
// (The gamma draw's shape < 1 branch, the only user of portable::exp, is out of a
// chain's reach - its degrees of freedom exceed the item count - and unit-tested.)
#include <mpi.h>

#include <Eigen/Core>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "bpmf/sampler.hpp"
#include "bpmf/synthetic.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"

namespace {

std::uint64_t fnv1a(std::uint64_t h, const std::vector<double>& values) {
  for (double v : values) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    for (int b = 0; b < 8; ++b) h = (h ^ ((bits >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t chain(std::int64_t rows, std::int64_t cols, double density, int K, int iterations) {
  bpmf::SyntheticSpec spec;
  spec.rows = rows, spec.cols = cols, spec.rank = 3, spec.density = density, spec.offset = 2.0, spec.seed = 5;
  const auto data = bpmf::generate_synthetic(spec);
  bpmf::SamplerConfig config;
  config.K = K, config.alpha = 4.0, config.burnin = 1, config.samples = iterations - 1, config.seed = 7;
  config.exchange = {hympi::Policy::pure, hympi::SyncKind::barrier};
  bpmf::Sampler sampler(hympi::Topology::of(MPI_COMM_SELF, hympi::LayoutSpec{}), data.train, data.test, config);
  std::vector<double> trace;
  while (sampler.iteration() < sampler.total_iterations()) trace.push_back(sampler.step().rmse_sample);
  const auto p = sampler.gather_predictive(bpmf::PredictiveStd::with_noise, 0);
  return fnv1a(fnv1a(fnv1a(0xcbf29ce484222325ULL, trace), p.mean), p.std);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  // 2000 x 40 at 10%: rows of ~4 ratings (low rank at K = 8), columns of ~200 and more.
  const std::uint64_t low_and_dense = chain(2000, 40, 0.1, 8, 4);
  // 60 x 1200 at 90%: rows of ~1000 ratings.
  const std::uint64_t long_sums = chain(60, 1200, 0.9, 6, 3);
  // K = 128: blocked K x K factorizations and solves.
  const std::uint64_t wide = chain(150, 120, 0.4, 128, 2);
  std::printf("cpu target bits: %016llx %016llx %016llx\n", static_cast<unsigned long long>(low_and_dense),
              static_cast<unsigned long long>(long_sums), static_cast<unsigned long long>(wide));
  // Another host's caches (Eigen reads them at run time and splits its sums by them):
  // tiny ones, set by the application between two chains, must not change a bit.
  Eigen::setCpuCacheSizes(4096, 16384, 65536);
  const bool same = chain(2000, 40, 0.1, 8, 4) == low_and_dense && chain(60, 1200, 0.9, 6, 3) == long_sums &&
                    chain(150, 120, 0.4, 128, 2) == wide;
  std::printf("cpu target bits: %s with 4 KiB / 16 KiB / 64 KiB caches\n", same ? "the same" : "DIFFERENT");
  MPI_Finalize();
  return same ? 0 : 1;
}
