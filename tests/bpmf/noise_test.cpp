// MPI test of the adaptive noise (issue 53), on synthetic data with known noise
// (std 0.5: precision 4) on whatever rank count and emulated layout the test runs:
// (1) the posterior mean of the sampled precision lies within 5% of the truth and the
//     68% / 95% intervals cover within 2 points of their level. Fixed seeds; the
//     tolerances are several standard errors wide: the precision's posterior sd is
//     about 4 * sqrt(2 / 32000) = 0.8%, a 68% fraction over ~8000 test entries has a
//     standard error of 0.5 points (95%: 0.25). Caught: a shape of n instead of n/2
//     (precision x2: 8.30, capped), the residuals summed on each rank alone (2 ranks).
//     Not caught by it (a converged chain moves little): residuals of the last
//     iteration's column vectors (4.062 instead of 4.064) - for that, (0).
// (0) the conditional against a plain reference: after each iteration, the draw from
//     the same stream with the SSE and variance computed directly (double sums over the
//     training entries, U and V of that iteration) - 1e-9 relative (the exact sums and
//     plain doubles differ in the last bits only). Caught: residuals of the last
//     iteration's v (0.836 vs 0.973 at iteration 1), the prior's rate without var.
//     The same for the reported conditional mean (n + 1) / (var + sse) (caught: n / sse).
// (2) the predictive std mixes the sampled noise: std^2 = latent std^2 + mean of
//     1 / alpha_s over the samples the reports gave (not the last alpha).
// (3) SN_MAX caps every draw: with SN_MAX below the truth each draw is the cap, and
//     the start and the cap are SMURFF's (SN + 1) / var with var summed directly here.
//     Caught: SN / var (the definition before 2026-11-29: start 0.01/var, cap 0.02/var).
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bpmf/predictive.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf/synthetic.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"

namespace {

using hympi::test::check;

constexpr double kNoise = 0.5;

bpmf::SyntheticData data() {
  bpmf::SyntheticSpec spec;
  spec.rows = 500;
  spec.cols = 400;
  spec.rank = 3;
  spec.density = 0.2;
  spec.noise = kNoise;
  spec.offset = 2.0;
  spec.seed = 5;
  return bpmf::generate_synthetic(spec);
}

bpmf::SamplerConfig adaptive(double sn_init, double sn_max) {
  bpmf::SamplerConfig c;
  c.K = 5;
  c.noise = {bpmf::NoiseKind::adaptive, sn_init, sn_max};
  c.burnin = 15;
  c.samples = 30;
  c.seed = 31;
  c.exchange = {hympi::Policy::hybrid, hympi::SyncKind::barrier};
  return c;
}

void conditional_matches_direct_draw(const hympi::Topology& topo, const bpmf::SyntheticData& d, int rank) {
  auto config = adaptive(1.0, 100.0);  // cap far above: every draw is the conditional's
  config.burnin = 3;
  config.samples = 2;
  bpmf::Sampler sampler(topo, d.train, d.test, config);
  const double mean = sampler.train_mean();
  const auto n = static_cast<std::int64_t>(d.train.entries.size());
  double var = 0.0;
  for (const auto& e : d.train.entries) var += (e.value - mean) * (e.value - mean);
  var /= static_cast<double>(n);
  for (int i = 0; i < sampler.total_iterations(); ++i) {
    const auto r = sampler.step();
    const double *U = sampler.rows_latent(), *V = sampler.cols_latent();
    double sse = 0.0;
    for (const auto& e : d.train.entries) {
      double dot = 0.0;
      for (int k = 0; k < config.K; ++k) dot += U[e.row * config.K + k] * V[e.col * config.K + k];
      const double residual = (e.value - mean) - dot;
      sse += residual * residual;
    }
    bpmf::Stream stream(config.seed, static_cast<std::uint64_t>(r.iteration), bpmf::kNoiseSide, bpmf::kHyperItem);
    // The conditional written out: Gamma(1/2 + n/2, rate var/2 + sse/2), below the cap.
    const double want = stream.gamma(0.5 + 0.5 * static_cast<double>(n)) / (0.5 * var + 0.5 * sse);
    check(want < 100.0 / var, "the cap binds: the check would not see the conditional");
    if (rank == 0 && i == 0) std::printf("direct draw at iteration 1: %.9g, sampler %.9g\n", want, r.alpha);
    check(std::fabs(r.alpha - want) <= 1e-9 * want, "iteration " + std::to_string(r.iteration) + ": precision " +
                                                        std::to_string(r.alpha) + ", direct draw " +
                                                        std::to_string(want));
    // The reported mean of that conditional before the cap: (n + 1) / (var + sse).
    const double mean_conditional = (static_cast<double>(n) + 1.0) / (var + sse);
    check(std::fabs(r.alpha_conditional - mean_conditional) <= 1e-9 * mean_conditional,
          "iteration " + std::to_string(r.iteration) + ": conditional mean " + std::to_string(r.alpha_conditional) +
              ", direct " + std::to_string(mean_conditional));
  }
}

void posterior_and_coverage(const hympi::Topology& topo, const bpmf::SyntheticData& d, int rank) {
  bpmf::Sampler sampler(topo, d.train, d.test, adaptive(1.0, 10.0));
  std::vector<double> alphas;  // post-burn-in, in order
  while (sampler.iteration() < sampler.total_iterations()) {
    const auto r = sampler.step();
    if (!r.burnin) alphas.push_back(r.alpha);
  }
  const auto noise = sampler.gather_predictive(bpmf::PredictiveStd::with_noise);
  const auto latent = sampler.gather_predictive(bpmf::PredictiveStd::latent);
  if (rank != 0) return;
  const double truth = 1.0 / (kNoise * kNoise), mean = sampler.precision_mean();
  double direct_mean = 0.0, inverse = 0.0;
  for (double a : alphas) direct_mean += a, inverse += 1.0 / a;
  direct_mean /= static_cast<double>(alphas.size());
  inverse /= static_cast<double>(alphas.size());
  check(std::fabs(mean - direct_mean) <= 1e-12 * direct_mean, "precision_mean " + std::to_string(mean) +
                                                                  " is not the mean of the reported draws " +
                                                                  std::to_string(direct_mean));
  check(std::fabs(mean - truth) <= 0.05 * truth,
        "posterior mean precision " + std::to_string(mean) + " not within 5% of the truth " + std::to_string(truth));
  int bad = 0;
  for (std::size_t k = 0; k < noise.std.size() && bad < 5; ++k) {
    const double want = std::sqrt(latent.std[k] * latent.std[k] + inverse);
    if (std::fabs(noise.std[k] - want) > 1e-12 * want) {
      ++bad;
      check(false, "entry " + std::to_string(k) + ": predictive std " + std::to_string(noise.std[k]) +
                       ", latent std with the mean 1/alpha " + std::to_string(want));
    }
  }
  const auto c = bpmf::interval_coverage(d.test, noise.mean, noise.std);
  check(std::fabs(c.fraction68() - 0.68) <= 0.02 && std::fabs(c.fraction95() - 0.95) <= 0.02,
        "coverage " + std::to_string(c.fraction68()) + " / " + std::to_string(c.fraction95()) +
            " not within 0.68 / 0.95 +- 0.02");
  std::printf(
      "adaptive noise: posterior mean precision %.5f (truth %.5f, %+.2f%%; %zu draws from %.4f), coverage "
      "68%% %.4f, 95%% %.4f of %zu\n",
      mean, truth, 100.0 * (mean / truth - 1.0), alphas.size(), sampler.initial_precision(), c.fraction68(),
      c.fraction95(), c.entries);
}

void capped(const hympi::Topology& topo, const bpmf::SyntheticData& d, int rank) {
  auto config = adaptive(0.01, 0.02);  // cap 1.02/var, var ~ 1.2: far below the truth 4
  config.burnin = 2;
  config.samples = 3;
  bpmf::Sampler sampler(topo, d.train, d.test, config);
  double var = 0.0;
  for (const auto& e : d.train.entries) var += (e.value - sampler.train_mean()) * (e.value - sampler.train_mean());
  var /= static_cast<double>(d.train.entries.size());
  const auto near = [](double a, double b) { return std::fabs(a / b - 1.0) < 1e-12; };
  check(near(sampler.initial_precision(), 1.01 / var) && near(sampler.max_precision(), 1.02 / var),
        "start " + std::to_string(sampler.initial_precision()) + " and cap " + std::to_string(sampler.max_precision()) +
            " are not (SN + 1) / var = " + std::to_string(1.01 / var) + ", " + std::to_string(1.02 / var));
  for (int i = 0; i < sampler.total_iterations(); ++i) {
    const auto r = sampler.step();
    check(r.alpha == sampler.max_precision(), "iteration " + std::to_string(r.iteration) + ": precision " +
                                                  std::to_string(r.alpha) + " is not the cap " +
                                                  std::to_string(sampler.max_precision()));
  }
  if (rank == 0) std::printf("SN_MAX: every draw capped at %.6g\n", sampler.max_precision());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = hympi::test::world_rank();
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
  const auto d = data();
  conditional_matches_direct_draw(topo, d, rank);
  posterior_and_coverage(topo, d, rank);
  capped(topo, d, rank);
  const int rc = hympi::test::finish("bpmf_noise_test");
  MPI_Finalize();
  return rc;
}
