// MPI test of the split conformal calibration (--calibrate, issue 53), on synthetic
// data on whatever rank count and emulated layout the test runs:
// (1) the held-out set, the chain it leaves and the multipliers and calibrated
//     coverage are bitwise those of a one-rank run (MPI_COMM_SELF), pure/barrier and
//     hybrid/flags: the same ratings held out (count and a digest of their bits), the
//     same training count, test and held-out predictions and stds. Caught: the hash
//     keyed by the chain seed + the rank (np 2 fails, np 1 passes).
// (2) against plain references: the chain trains on exactly the ratings not held out
//     (count and mean over the kept entries written out here; caught: the holdout
//     leaking into training - the matrix built from the whole training set), the
//     held-out fraction within 4 binomial sd of the option, the multiplier is the
//     ceil((n + 1) p)-th smallest score by counting (#{z <= m} >= (n + 1) p > #{z < m};
//     caught: the index off by one, ceil(n p) instead of ceil((n + 1) p)), the
//     calibrated coverage a direct count, the RMSE of the test entries alone
//     (caught: the held-out entries in the RMSE).
// (3) with the true noise (fixed alpha = 1 / 0.5^2) the held-out |z| are |N(0, 1)|:
//     multipliers within 4 sd of 0.9945 / 1.9600. The sd of the p-quantile of n scores
//     is sqrt(p (1 - p) / n) / f(q), f(q) = 2 phi(q) the density of |z|: n ~ 3200
//     gives 0.017 (68%) and 0.033 (95%); calibrated test coverage within 3 / 2 points.
// (4) adaptive noise: its initial precision and cap from the kept ratings' variance
//     alone (adaptive_noise_from_kept_ratings).
#include "bpmf/calibration.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bpmf/predictive.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf/synthetic.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"
#include "synthetic_fixture.hpp"

namespace {

using hympi::test::check;

struct Result {
  std::int64_t held_out = 0, trained = 0;
  std::uint64_t held_out_digest = 0;
  double mean = 0;
  std::vector<double> rmse;  // the averaged test RMSE trace
  bpmf::Predictions p;       // rank 0
  bpmf::Calibration c;       // rank 0
  bpmf::Coverage calibrated;
};

std::uint64_t digest(const bpmf::Ratings& r) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const auto& e : r.entries) {
    unsigned char b[sizeof e];
    std::memcpy(b, &e, sizeof e);
    for (unsigned char x : b) h = (h ^ x) * 1099511628211ULL;
  }
  return h;
}

Result run(const hympi::Topology& topo, const bpmf::SyntheticData& d, const bpmf::SamplerConfig& config) {
  bpmf::Sampler sampler(topo, d.train, d.test, config);
  Result r;
  while (sampler.iteration() < sampler.total_iterations()) r.rmse.push_back(sampler.step().rmse_average);
  r.held_out = static_cast<std::int64_t>(sampler.calibration_ratings().entries.size());
  r.held_out_digest = digest(sampler.calibration_ratings());
  r.trained = sampler.training_ratings();
  r.mean = sampler.train_mean();
  r.p = sampler.gather_predictive(bpmf::PredictiveStd::with_noise, 0);
  if (topo.rank() == 0) {
    r.c = bpmf::calibrate(sampler.calibration_ratings(), r.p.calibration_mean, r.p.calibration_std);
    r.calibrated = bpmf::interval_coverage(d.test, r.p.mean, r.p.std, r.c.multiplier68, r.c.multiplier95);
  }
  return r;
}

bool same(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}
bool same(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

bpmf::SyntheticData data(double noise) {
  return bpmf::test::shared_synthetic(noise);
}

bpmf::SamplerConfig config(double noise) {
  bpmf::SamplerConfig c;
  c.K = 5;
  c.alpha = 1.0 / (noise * noise);  // the true noise
  c.burnin = 15;
  c.samples = 30;
  c.seed = 31;
  c.calibrate = 0.1;
  return c;
}

// (2): the plain references, on rank 0's results of `r`.
void against_plain_references(const bpmf::SyntheticData& d, const bpmf::SamplerConfig& c, const Result& r) {
  const bpmf::Ratings& train = d.train;
  std::int64_t kept = 0;
  double sum = 0.0;
  for (const auto& e : train.entries)
    if (!bpmf::held_out_for_calibration(e.row, e.col, c.seed, c.calibrate)) ++kept, sum += e.value;
  check(r.trained == kept && r.held_out == static_cast<std::int64_t>(train.entries.size()) - kept,
        "the chain trains on " + std::to_string(r.trained) + " ratings and holds out " + std::to_string(r.held_out) +
            "; kept by the hash: " + std::to_string(kept) + " of " + std::to_string(train.entries.size()));
  check(r.mean == sum / static_cast<double>(kept), "the chain's mean is not the kept ratings' mean");
  const double n_all = static_cast<double>(train.entries.size());
  const double sd = std::sqrt(n_all * c.calibrate * (1 - c.calibrate));
  check(std::fabs(static_cast<double>(r.held_out) - c.calibrate * n_all) <= 4 * sd,
        "held out " + std::to_string(r.held_out) + " of " + std::to_string(train.entries.size()) +
            ": not within 4 sd of the fraction " + std::to_string(c.calibrate));
  // The multipliers by counting, from the held-out predictions the sampler gathered.
  std::vector<double> z(static_cast<std::size_t>(r.held_out));
  // calibration_ratings() is in training-file order: the entries kept above, skipped.
  std::size_t k = 0;
  for (const auto& e : train.entries)
    if (bpmf::held_out_for_calibration(e.row, e.col, c.seed, c.calibrate)) {
      z[k] = std::fabs(e.value - r.p.calibration_mean[k]) / r.p.calibration_std[k];
      ++k;
    }
  const double n = static_cast<double>(z.size());
  for (const auto& [percent, m] : {std::pair{68, r.c.multiplier68}, std::pair{95, r.c.multiplier95}}) {
    double at_most = 0, below = 0;
    for (double x : z) at_most += x <= m, below += x < m;
    const double need = (n + 1) * percent / 100.0;
    check(at_most >= need && below < need, std::to_string(percent) + "%: multiplier " + std::to_string(m) + " has " +
                                               std::to_string(below) + " scores below and " + std::to_string(at_most) +
                                               " at or below it; (n + 1) p = " + std::to_string(need));
  }
  std::size_t in68 = 0, in95 = 0;
  double sq = 0;
  for (std::size_t t = 0; t < d.test.entries.size(); ++t) {
    const double e = std::fabs(d.test.entries[t].value - r.p.mean[t]);
    in68 += e <= r.c.multiplier68 * r.p.std[t];
    in95 += e <= r.c.multiplier95 * r.p.std[t];
    sq += e * e;
  }
  check(in68 == r.calibrated.within68 && in95 == r.calibrated.within95, "calibrated coverage is not a direct count");
  const double rmse = std::sqrt(sq / static_cast<double>(d.test.entries.size()));
  check(std::fabs(rmse - r.rmse.back()) <= 1e-12 * rmse,
        "the RMSE " + std::to_string(r.rmse.back()) + " is not the test set's " + std::to_string(rmse));
}

// (4) Adaptive noise starts at (SN_INIT + 1) / var and is capped at (SN_MAX + 1) / var,
// var the total variance of the KEPT ratings about their mean, recomputed here (the
// sampler sums exactly; a plain sum agrees to 1e-12). Caught: the held-out ratings
// counted in var's n (var 10% low at --calibrate 0.1) or their values in its sum.
void adaptive_noise_from_kept_ratings(const hympi::Topology& topo, const bpmf::SyntheticData& d,
                                      bpmf::SamplerConfig c) {
  c.noise = {bpmf::NoiseKind::adaptive, 1.5, 12.0};
  c.burnin = 1;
  c.samples = 0;
  const bpmf::Sampler sampler(topo, d.train, d.test, c);
  std::int64_t kept = 0;
  double sum = 0.0;
  for (const auto& e : d.train.entries)
    if (!bpmf::held_out_for_calibration(e.row, e.col, c.seed, c.calibrate)) ++kept, sum += e.value;
  const double mean = sum / static_cast<double>(kept);
  double sq = 0.0;
  for (const auto& e : d.train.entries)
    if (!bpmf::held_out_for_calibration(e.row, e.col, c.seed, c.calibrate)) sq += (e.value - mean) * (e.value - mean);
  const double var = sq / static_cast<double>(kept);
  const double init = (c.noise.sn_init + 1) / var, cap = (c.noise.sn_max + 1) / var;
  const auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fabs(b); };
  check(near(sampler.initial_precision(), init) && near(sampler.max_precision(), cap),
        "adaptive noise: initial precision " + std::to_string(sampler.initial_precision()) + ", cap " +
            std::to_string(sampler.max_precision()) + "; from the " + std::to_string(kept) +
            " kept ratings' variance: " + std::to_string(init) + ", " + std::to_string(cap));
  if (topo.rank() == 0)
    std::printf("adaptive noise: initial precision %.10g, cap %.10g = (SN + 1) / var of the %lld kept ratings\n", init,
                cap, static_cast<long long>(kept));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = hympi::test::world_rank();
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double noise = 0.5;
  const auto d = data(noise);
  auto c = config(noise);

  // (1) The 1-rank reference, then this layout pure and hybrid.
  c.exchange = {hympi::Policy::pure, hympi::SyncKind::barrier};
  const Result ref = run(hympi::Topology::of(MPI_COMM_SELF, hympi::LayoutSpec{}), d, c);
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
  for (const auto& [policy, sync] : {std::pair{hympi::Policy::pure, hympi::SyncKind::barrier},
                                     std::pair{hympi::Policy::hybrid, hympi::SyncKind::flags}}) {
    c.exchange = {policy, sync};
    const Result r = run(topo, d, c);
    const std::string name = std::string(hympi::to_string(policy)) + " on " + std::to_string(size) + " ranks (" +
                             topo.layout().describe() + ")";
    check(r.held_out == ref.held_out && r.held_out_digest == ref.held_out_digest && r.trained == ref.trained,
          name + ": held out " + std::to_string(r.held_out) + " (digest " + std::to_string(r.held_out_digest) +
              "), 1 rank " + std::to_string(ref.held_out) + " (" + std::to_string(ref.held_out_digest) + ")");
    check(same(r.rmse, ref.rmse), name + ": the RMSE trace differs from 1 rank");
    if (rank == 0) {
      check(same(r.p.mean, ref.p.mean) && same(r.p.std, ref.p.std) &&
                same(r.p.calibration_mean, ref.p.calibration_mean) && same(r.p.calibration_std, ref.p.calibration_std),
            name + ": predictions differ from 1 rank");
      check(same(r.c.multiplier68, ref.c.multiplier68) && same(r.c.multiplier95, ref.c.multiplier95) &&
                r.calibrated.within68 == ref.calibrated.within68 && r.calibrated.within95 == ref.calibrated.within95,
            name + ": multipliers or calibrated coverage differ from 1 rank");
      std::printf("checked: %s against 1 rank: %lld held out, multipliers %.17g %.17g\n", name.c_str(),
                  static_cast<long long>(r.held_out), r.c.multiplier68, r.c.multiplier95);
    }
  }

  adaptive_noise_from_kept_ratings(topo, d, c);

  if (rank == 0) {
    against_plain_references(d, c, ref);
    // (3) Near the Gaussian's with the true noise; bands of 4 sd of the quantile.
    const double n = static_cast<double>(ref.c.ratings);
    const auto sd = [n](double p, double q) {
      return std::sqrt(p * (1 - p) / n) / (2 * std::exp(-q * q / 2) / std::sqrt(2 * M_PI));
    };
    const double band68 = 4 * sd(0.68, bpmf::kZ68), band95 = 4 * sd(0.95, bpmf::kZ95);
    check(std::fabs(ref.c.multiplier68 - bpmf::kZ68) <= band68 && std::fabs(ref.c.multiplier95 - bpmf::kZ95) <= band95,
          "multipliers " + std::to_string(ref.c.multiplier68) + ", " + std::to_string(ref.c.multiplier95) +
              " not within " + std::to_string(band68) + ", " + std::to_string(band95) + " of the Gaussian's");
    check(
        std::fabs(ref.calibrated.fraction68() - 0.68) <= 0.03 && std::fabs(ref.calibrated.fraction95() - 0.95) <= 0.02,
        "calibrated coverage " + std::to_string(ref.calibrated.fraction68()) + " / " +
            std::to_string(ref.calibrated.fraction95()) + " not within 0.68 +- 0.03 / 0.95 +- 0.02");
    std::printf(
        "true noise: %zu held out, multipliers %.4f (Gaussian %.4f +- %.4f), %.4f (%.4f +- %.4f); calibrated "
        "coverage %.4f / %.4f, Gaussian %.4f / %.4f of %zu\n",
        ref.c.ratings, ref.c.multiplier68, bpmf::kZ68, band68, ref.c.multiplier95, bpmf::kZ95, band95,
        ref.calibrated.fraction68(), ref.calibrated.fraction95(),
        bpmf::interval_coverage(d.test, ref.p.mean, ref.p.std).fraction68(),
        bpmf::interval_coverage(d.test, ref.p.mean, ref.p.std).fraction95(), d.test.entries.size());
  }
  const int rc = hympi::test::finish("bpmf_calibration_test");
  MPI_Finalize();
  return rc;
}
