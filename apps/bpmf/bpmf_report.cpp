#include "bpmf_report.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "bpmf/bits.hpp"

namespace bpmf::app {

using hympi::apps::Record;

namespace {
std::string hex(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}
}  // namespace

void Totals::add(const IterationReport& r) {
  ++iterations;
  seconds += r.seconds_wall;
  sampling += r.seconds_sampling;
  exchange += r.seconds_exchange;
  sync += r.seconds_sync;
}

double baseline_rmse(double mean, const Ratings& test) {
  double s = 0.0;
  for (const auto& e : test.entries) s += (e.value - mean) * (e.value - mean);
  return test.entries.empty() ? NAN : std::sqrt(s / static_cast<double>(test.entries.size()));
}

std::string digest(const std::vector<double>& values) {
  std::uint64_t h = 1469598103934665603ULL;
  for (double v : values) {
    unsigned char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ULL;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

void print_header(const Dataset& data, const Sampler& sampler, const Options& o, const hympi::apps::RunInfo& info,
                  double baseline) {
  const SamplerConfig& c = o.sampler;
  std::printf(
      "hympi-bpmf: %s\n  train %lld x %lld, %zu ratings; test %zu ratings; mean %.4f (baseline RMSE %.4f)\n"
      "  K=%d noise=%s burn-in=%d samples=%d seed=%llu; %d ranks on %d node(s) (%s), policy %s, sync %s\n",
      data.name.c_str(), static_cast<long long>(data.train.rows), static_cast<long long>(data.train.cols),
      data.train_count, data.test.entries.size(), sampler.train_mean(), baseline, c.K,
      noise_text(c.noise, c.alpha).c_str(), c.burnin, c.samples, static_cast<unsigned long long>(c.seed), info.ranks,
      info.nodes, info.layout.c_str(), hympi::to_string(c.exchange.policy), hympi::to_string(c.exchange.sync));
  if (c.calibrate > 0)
    std::printf(
        "  calibration: %zu of the training ratings held out (--calibrate %g), not trained on, predicted every "
        "sample like the test set; the chain trains on %lld\n",
        sampler.calibration_ratings().entries.size(), c.calibrate, static_cast<long long>(sampler.training_ratings()));
  if (c.noise.kind == NoiseKind::adaptive)
    std::printf(
        "  noise %s: precision sampled every iteration, from %.6g ((SN_INIT + 1) / training variance) up to %.6g\n",
        noise_text(c.noise, c.alpha).c_str(), sampler.initial_precision(), sampler.max_precision());
  std::fflush(stdout);
}

void print_iteration(const IterationReport& r, int total) {
  char avg[32] = "     -";
  if (!r.burnin) std::snprintf(avg, sizeof avg, "%6.4f", r.rmse_average);
  std::printf(
      "iter %4d/%d %-7s rmse %6.4f  avg %s  alpha %-9.5g items/s %9.3e  time %.4f s = sampling %.4f + exchange %.4f "
      "+ sync %.4f\n",
      r.iteration, total, r.burnin ? "burn-in" : "sample", r.rmse_sample, avg, r.alpha, r.items_per_second,
      r.seconds_wall, r.seconds_sampling, r.seconds_exchange, r.seconds_sync);
  std::fflush(stdout);
}

void print_summary(const Summary& s, const Totals& t) {
  std::printf(
      "summary: test RMSE %.6f (averaged over %d samples; last sample %.6f; training-mean baseline %.4f)\n"
      "summary: %d iterations in %.3f s, %.4f s/iteration (sampling %.4f, exchange %.4f, sync %.4f), "
      "%.4e items/s\n"
      "summary: predictions digest %s, predictive std digest %s (bits: %s)\n"
      "summary: predictive intervals (std %s) cover %.4f of the test set at 68%%, %.4f at 95%%\n"
      "summary: noise precision %.6g (posterior mean; noise std %.4f)\n",
      s.rmse_average, s.samples_averaged, s.rmse_last, s.rmse_baseline, t.iterations, t.seconds,
      t.per_iteration(t.seconds), t.per_iteration(t.sampling), t.per_iteration(t.exchange), t.per_iteration(t.sync),
      s.items_per_second, s.digest.c_str(), s.std_digest.c_str(), bpmf::kBits, to_string(s.std_kind),
      s.coverage.fraction68(), s.coverage.fraction95(), s.precision_mean, 1.0 / std::sqrt(s.precision_mean));
  if (s.calibrated() && s.std_kind == PredictiveStd::with_noise)
    std::printf(
        "summary: calibrated intervals (split conformal, %zu held-out training ratings, std noise): multipliers "
        "%.4f at 68%%, %.4f at 95%% (Gaussian %.4f, %.4f) cover %.4f of the test set at 68%%, %.4f at 95%%\n",
        s.calibration.ratings, s.calibration.multiplier68, s.calibration.multiplier95, kZ68, kZ95,
        s.calibrated_coverage.fraction68(), s.calibrated_coverage.fraction95());
  else if (s.calibrated())  // the latent std leaves the noise out: no Gaussian z to compare with
    std::printf(
        "summary: calibrated intervals (split conformal, %zu held-out training ratings, std latent): multipliers "
        "%.4f at 68%%, %.4f at 95%% of the latent std (u.v alone), widened to cover a new rating with its noise, "
        "cover %.4f of the test set at 68%%, %.4f at 95%%\n",
        s.calibration.ratings, s.calibration.multiplier68, s.calibration.multiplier95,
        s.calibrated_coverage.fraction68(), s.calibrated_coverage.fraction95());
  else if (s.calibration.ratings > 0)
    std::printf(
        "summary: calibrated intervals: n/a (%zu training ratings held out, but no post-burn-in sample to predict "
        "them: --samples 0)\n",
        s.calibration.ratings);
  // PSS shares a node-shared page among the processes mapping it, so its node sum
  // is what the node holds; RSS counts such a page once per process.
  const double mib = 1 << 20;
  std::printf(
      "summary: memory of node 0 (%d ranks): ratings %.1f MiB + latent %.1f MiB = %.1f MiB; processes hold "
      "PSS %.1f MiB, RSS %.1f MiB, peak RSS %.1f MiB (summed; -1: unknown)\n",
      s.node_ranks, s.ratings_bytes_per_node / mib, s.latent_bytes_per_node / mib,
      (s.ratings_bytes_per_node + s.latent_bytes_per_node) / mib,
      s.node_memory.pss_bytes < 0 ? -1.0 : s.node_memory.pss_bytes / mib,
      s.node_memory.rss_bytes < 0 ? -1.0 : s.node_memory.rss_bytes / mib,
      s.node_memory.peak_rss_bytes < 0 ? -1.0 : s.node_memory.peak_rss_bytes / mib);
}

Record trace_record(const Options& o, const hympi::apps::RunInfo& info, const IterationReport& r) {
  return Record()
      .add("ranks", info.ranks)
      .add("layout", info.layout)
      .add("policy", hympi::to_string(o.sampler.exchange.policy))
      .add("sync", hympi::to_string(o.sampler.exchange.sync))
      .add("K", o.sampler.K)
      .add("seed", o.sampler.seed)
      .add("iteration", r.iteration)
      .add("burnin", r.burnin)
      .add("rmse_sample", r.rmse_sample, 10)
      .add("rmse_average", r.rmse_average, 10)
      .add("noise", noise_text(o.sampler.noise, o.sampler.alpha))
      .add("alpha", r.alpha, 10)
      .add("alpha_conditional", r.alpha_conditional, 10)
      .add("items_per_s", r.items_per_second)
      .add("seconds", r.seconds_wall)
      .add("sampling", r.seconds_sampling)
      .add("exchange", r.seconds_exchange)
      .add("sync_seconds", r.seconds_sync);
}

Record summary_record(const Dataset& data, const Options& o, const Summary& s, const Totals& t) {
  const SamplerConfig& c = o.sampler;
  const bool calibrated = s.calibrated();
  return Record()
      .add("dataset", data.name)
      .add("rows", data.train.rows)
      .add("cols", data.train.cols)
      .add("train_entries", data.train_count)
      .add("test_entries", data.test.entries.size())
      .add("K", c.K)
      .add("alpha", c.noise.kind == NoiseKind::fixed ? c.alpha : NAN)  // adaptive: precision_mean
      .add("noise", noise_text(c.noise, c.alpha))
      .add("burnin", c.burnin)
      .add("samples", c.samples)
      .add("seed", c.seed)
      .add("policy", hympi::to_string(c.exchange.policy))
      .add("sync", hympi::to_string(c.exchange.sync))
      .add("barrier_timing", c.barrier_before_exchange)
      .add("rmse_average", s.rmse_average, 10)
      .add("rmse_last", s.rmse_last, 10)
      .add("rmse_baseline", s.rmse_baseline, 10)
      .add("iterations", t.iterations)
      .add("seconds_total", t.seconds)
      .add("seconds_per_iteration", t.per_iteration(t.seconds))
      .add("sampling_per_iteration", t.per_iteration(t.sampling))
      .add("exchange_per_iteration", t.per_iteration(t.exchange))
      .add("sync_per_iteration", t.per_iteration(t.sync))
      .add("items_per_s", s.items_per_second)
      .add("latent_bytes_per_node", s.latent_bytes_per_node)
      .add("ratings_bytes_per_node", s.ratings_bytes_per_node)
      .add("node0_ranks", s.node_ranks)
      .add("node0_rss_bytes", s.node_memory.rss_bytes)
      .add("node0_pss_bytes", s.node_memory.pss_bytes)
      .add("node0_peak_rss_bytes", s.node_memory.peak_rss_bytes)
      .add("rmse_average_hex", hex(s.rmse_average))
      .add("predictions_digest", s.digest)
      .add("predictive_std", to_string(o.std_kind))
      .add("coverage68", s.coverage.fraction68(), 6)
      .add("coverage95", s.coverage.fraction95(), 6)
      .add("std_digest", s.std_digest)
      .add("precision_mean", s.precision_mean, 10)
      .add("bits", bpmf::kBits)
      .add("calibrate_fraction", c.calibrate, 17)
      .add("calibration_ratings", s.calibration.ratings)
      .add("multiplier_68", calibrated ? s.calibration.multiplier68 : NAN, 10)
      .add("multiplier_95", calibrated ? s.calibration.multiplier95 : NAN, 10)
      .add("calibrated_coverage_68", calibrated ? s.calibrated_coverage.fraction68() : NAN, 6)
      .add("calibrated_coverage_95", calibrated ? s.calibrated_coverage.fraction95() : NAN, 6);
}

}  // namespace bpmf::app
