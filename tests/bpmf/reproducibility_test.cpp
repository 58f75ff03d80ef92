// MPI test: the distributed sampler gives bitwise the same RMSE trace and
// predictions as a one-rank run (the plain reference, on MPI_COMM_SELF), for the
// pure and hybrid exchange and both node synchronizations, on whatever rank count
// and emulated layout the test runs with (HYMPI_* environment). It also checks that
// the averaged test RMSE on synthetic low-rank data falls below a bound set by the
// noise. Any failure fails the test on every rank (mpi_check.hpp).
// With the argument `adaptive` the chain samples its noise precision (--noise
// adaptive): the precision trace is compared too, and it is part of the resumed state.
// Mutations caught: the residuals not reduced over the ranks (np 2: every trace
// differs), restore() without the checkpointed precision (the resumed trace differs).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bpmf/checkpoint.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf/synthetic.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"

namespace {

using hympi::test::check;
using hympi::test::world_rank;

struct Run {
  std::vector<double> rmse_sample, rmse_average, alpha, predictions, std;  // predictions and std on rank 0 only
  bpmf::ChainState middle;  // the chain state after `stop_at` iterations (on rank 0 only)
};

// `resume`: continue that chain state (iterations before it are not in the trace).
Run run(const hympi::Topology& topo, const bpmf::SyntheticData& data, bpmf::SamplerConfig config, int stop_at = -1,
        const bpmf::ChainState* resume = nullptr) {
  bpmf::Sampler sampler(topo, data.train, data.test, config);
  if (resume) sampler.restore(*resume);
  Run r;
  while (sampler.iteration() < sampler.total_iterations()) {
    const auto rep = sampler.step();
    r.rmse_sample.push_back(rep.rmse_sample);
    r.rmse_average.push_back(rep.rmse_average);
    r.alpha.push_back(rep.alpha);
    if (rep.iteration == stop_at) r.middle = sampler.gather_state(0);
  }
  auto p = sampler.gather_predictive(bpmf::PredictiveStd::with_noise, 0);
  r.predictions = std::move(p.mean);
  r.std = std::move(p.std);
  return r;
}

std::vector<double> tail(const std::vector<double>& v, std::size_t n) {
  return std::vector<double>(v.end() - static_cast<std::ptrdiff_t>(std::min(n, v.size())), v.end());
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = world_rank();
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  bpmf::SyntheticSpec spec;
  spec.rows = 400;
  spec.cols = 300;
  spec.rank = 3;
  spec.density = 0.2;
  spec.noise = 0.5;
  spec.offset = 3.0;  // not centred, like real ratings: exercises the mean handling
  spec.seed = 11;
  const auto data = bpmf::generate_synthetic(spec);

  bpmf::SamplerConfig config;
  config.K = 6;
  config.alpha = 1.0 / (spec.noise * spec.noise);
  config.burnin = 10;
  config.samples = 20;
  config.seed = 2024;
  const bool adaptive = argc > 1 && std::string(argv[1]) == "adaptive";
  if (adaptive) config.noise = {bpmf::NoiseKind::adaptive, 1.0, 10.0};

  // The plain reference: one rank, private copies, no emulated nodes.
  config.exchange = {hympi::Policy::pure, hympi::SyncKind::barrier};
  const int stop_at = 17;  // within the samples: the moments are part of the state
  const Run reference = run(hympi::Topology::of(MPI_COMM_SELF, hympi::LayoutSpec{}), data, config, stop_at);
  bpmf::ChainState middle = reference.middle;  // on rank 0: the 1-rank state to every rank
  bpmf::broadcast(middle, MPI_COMM_WORLD);

  // The noise sets the bound: no predictor beats RMSE = noise on average; a correct
  // sampler on this well-determined problem gets within 12% of it (the training-mean
  // predictor is at sqrt(1 + noise^2) = 2.2 x noise).
  const double bound = 1.12 * spec.noise;
  const double final_rmse = reference.rmse_average.back();
  check(final_rmse < bound,
        "averaged test RMSE " + std::to_string(final_rmse) + " is not below the bound " + std::to_string(bound));

  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);  // layout from HYMPI_* environment
  const struct {
    hympi::Policy policy;
    hympi::SyncKind sync;
  } variants[] = {{hympi::Policy::pure, hympi::SyncKind::barrier},
                  {hympi::Policy::hybrid, hympi::SyncKind::barrier},
                  {hympi::Policy::hybrid, hympi::SyncKind::flags}};
  for (const auto& v : variants) {
    config.exchange = {v.policy, v.sync};
    const Run r = run(topo, data, config);
    const std::string name = std::string(hympi::to_string(v.policy)) + "/" + hympi::to_string(v.sync) + " on " +
                             std::to_string(size) + " ranks (" + topo.layout().describe() + ")";
    check(bitwise_equal(r.rmse_sample, reference.rmse_sample), name + ": per-sample RMSE differs from 1 rank");
    check(bitwise_equal(r.rmse_average, reference.rmse_average), name + ": averaged RMSE differs from 1 rank");
    check(bitwise_equal(r.alpha, reference.alpha), name + ": noise precision trace differs from 1 rank");
    if (rank == 0)
      check(bitwise_equal(r.predictions, reference.predictions), name + ": averaged predictions differ from 1 rank");
    if (rank == 0) check(bitwise_equal(r.std, reference.std), name + ": predictive std differs from 1 rank");
    // Resumed from the 1-rank chain state: the same rest of the trace, the same results.
    const Run resumed = run(topo, data, config, -1, &middle);
    const auto rest = static_cast<std::size_t>(config.burnin + config.samples - stop_at);
    check(bitwise_equal(resumed.rmse_sample, tail(reference.rmse_sample, rest)) &&
              bitwise_equal(resumed.rmse_average, tail(reference.rmse_average, rest)) &&
              bitwise_equal(resumed.alpha, tail(reference.alpha, rest)),
          name + ": the RMSE trace resumed from the 1-rank state differs");
    if (rank == 0)
      check(bitwise_equal(resumed.predictions, reference.predictions) && bitwise_equal(resumed.std, reference.std),
            name + ": predictions resumed from the 1-rank state differ");
    if (rank == 0) std::printf("checked: %s against the 1-rank reference\n", name.c_str());
  }
  if (rank == 0)
    std::printf("averaged test RMSE %.6f, bound %.6f (noise %.2f, %zu test entries); %s noise, last precision %.6g\n",
                final_rmse, bound, spec.noise, data.test.entries.size(), adaptive ? "adaptive" : "fixed",
                reference.alpha.back());
  const int rc = hympi::test::finish("bpmf_reproducibility_test");
  MPI_Finalize();
  return rc;
}
