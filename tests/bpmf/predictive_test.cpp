// MPI test of the predictive uncertainty: (1) the sampler's running mean and
// standard deviation of every test prediction equal a direct two-pass computation
// over the stored post-burn-in samples (from the latent matrices after each step);
// (2) on synthetic data with known noise, a calibrated model (alpha = 1/noise^2,
// std with noise) covers 68% and 95% of the test set within a tolerance of about
// 8 standard errors, while an overconfident model (alpha 25x too large) and the
// latent-only std fall outside it - so the tolerance cannot pass by chance.
// Runs on whatever rank count and emulated layout the environment gives.
#include "bpmf/predictive.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bpmf/sampler.hpp"
#include "bpmf/synthetic.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"
#include "synthetic_fixture.hpp"

namespace {

using hympi::test::check;

bpmf::SyntheticData data_with_noise(double noise) {
  return bpmf::test::shared_synthetic(noise);
}

bpmf::SamplerConfig config_for(double alpha) {
  bpmf::SamplerConfig c;
  c.K = 5;
  c.alpha = alpha;
  c.burnin = 8;
  c.samples = 25;
  c.seed = 77;
  c.exchange = {hympi::Policy::hybrid, hympi::SyncKind::barrier};
  return c;
}

bool close(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * (1.0 + std::fabs(b));
}

void std_equals_direct_computation(const hympi::Topology& topo, int rank) {
  const auto data = data_with_noise(0.5);
  const auto config = config_for(4.0);
  bpmf::Sampler sampler(topo, data.train, data.test, config);
  const auto n_test = data.test.entries.size();
  std::vector<std::vector<double>> samples;  // post-burn-in predictions of every test entry
  for (int i = 0; i < sampler.total_iterations(); ++i) {
    const auto report = sampler.step();
    if (report.burnin) continue;
    std::vector<double> p(n_test);
    for (std::size_t k = 0; k < n_test; ++k) {
      const auto& e = data.test.entries[k];
      double dot = 0.0;
      for (int a = 0; a < config.K; ++a)
        dot += sampler.rows_latent()[e.row * config.K + a] * sampler.cols_latent()[e.col * config.K + a];
      p[k] = sampler.train_mean() + dot;
    }
    samples.push_back(std::move(p));
  }
  const auto noise = sampler.gather_predictive(bpmf::PredictiveStd::with_noise);
  const auto latent = sampler.gather_predictive(bpmf::PredictiveStd::latent);
  if (rank != 0) return;
  check(noise.mean.size() == n_test && noise.std.size() == n_test, "one mean and std per test entry");
  const double n = static_cast<double>(samples.size());
  int bad = 0;
  for (std::size_t k = 0; k < n_test && bad < 5; ++k) {
    double mean = 0.0, var = 0.0;
    for (const auto& s : samples) mean += s[k];
    mean /= n;
    for (const auto& s : samples) var += (s[k] - mean) * (s[k] - mean);
    var /= n;
    const bool ok = close(noise.mean[k], mean, 1e-12) && close(latent.std[k], std::sqrt(var), 1e-9) &&
                    close(noise.std[k], std::sqrt(var + 1.0 / config.alpha), 1e-12) && latent.mean[k] == noise.mean[k];
    if (!ok) ++bad;
    check(ok, "entry " + std::to_string(k) + ": sampler mean/std " + std::to_string(noise.mean[k]) + "/" +
                  std::to_string(latent.std[k]) + "/" + std::to_string(noise.std[k]) + " vs direct " +
                  std::to_string(mean) + "/" + std::to_string(std::sqrt(var)) + "/" +
                  std::to_string(std::sqrt(var + 1.0 / config.alpha)));
  }
  std::printf("checked: mean and std of %zu test entries over %zu samples against the direct computation\n", n_test,
              samples.size());
}

bpmf::Coverage coverage_of(const hympi::Topology& topo, const bpmf::SyntheticData& data, double alpha,
                           bpmf::PredictiveStd kind) {
  bpmf::Sampler sampler(topo, data.train, data.test, config_for(alpha));
  for (int i = 0; i < sampler.total_iterations(); ++i) sampler.step();
  const auto p = sampler.gather_predictive(kind);
  bpmf::Coverage c;
  if (!p.mean.empty()) c = bpmf::interval_coverage(data.test, p.mean, p.std);
  return c;
}

void coverage_is_calibrated(const hympi::Topology& topo, int rank) {
  const double noise = 0.5, calibrated = 1.0 / (noise * noise);
  const auto data = data_with_noise(noise);
  const auto good = coverage_of(topo, data, calibrated, bpmf::PredictiveStd::with_noise);
  const auto overconfident = coverage_of(topo, data, 25.0 * calibrated, bpmf::PredictiveStd::with_noise);
  const auto latent = coverage_of(topo, data, calibrated, bpmf::PredictiveStd::latent);
  if (rank != 0) return;
  // ~8000 test entries: one standard error of a 68% fraction is 0.005.
  const auto within = [](const bpmf::Coverage& c) {
    return std::fabs(c.fraction68() - 0.68) <= 0.04 && std::fabs(c.fraction95() - 0.95) <= 0.025;
  };
  const auto text = [](const bpmf::Coverage& c) {
    return std::to_string(c.fraction68()) + " / " + std::to_string(c.fraction95()) + " of " + std::to_string(c.entries);
  };
  check(within(good), "calibrated model: coverage " + text(good) + " not within 0.68 +- 0.04 / 0.95 +- 0.025");
  check(!within(overconfident), "overconfident model passes the coverage check: " + text(overconfident));
  check(!within(latent), "latent-only std passes the coverage check: " + text(latent));
  std::printf("coverage 68%%/95%%: calibrated %s; overconfident %s; latent-only %s\n", text(good).c_str(),
              text(overconfident).c_str(), text(latent).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = hympi::test::world_rank();
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
  std_equals_direct_computation(topo, rank);
  coverage_is_calibrated(topo, rank);
  const int rc = hympi::test::finish("bpmf_predictive_test");
  MPI_Finalize();
  return rc;
}
