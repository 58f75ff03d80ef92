// Google Benchmark of the per-item Gibbs kernel: one conditional Gaussian draw for
// K = 16, 32, 64 and several ratings-per-item counts (ChEMBL compounds have ~3,
// targets ~140), by the default rule or forced onto the dense (low_rank_max 0) or
// the low-rank path (1000): where the two cross decides ItemPrior::low_rank_max.
#include <benchmark/benchmark.h>

#include <vector>

#include "bpmf/item_sampler.hpp"
#include "bpmf/normal_wishart.hpp"

namespace {

void BM_SampleItem(benchmark::State& state) {
  const int K = static_cast<int>(state.range(0));
  const auto n = static_cast<std::int32_t>(state.range(1));
  const std::int32_t others = 1000;
  bpmf::Stream init(7, 0, 9, 0);
  std::vector<double> other(static_cast<std::size_t>(others) * K);
  for (auto& x : other) x = init.normal();
  std::vector<std::int32_t> index(n);
  std::vector<double> value(n);
  for (std::int32_t r = 0; r < n; ++r) {
    index[r] = static_cast<std::int32_t>(init.bits() % others);
    value[r] = init.normal();
  }
  bpmf::ItemPrior prior(Eigen::MatrixXd::Identity(K, K), Eigen::VectorXd::Zero(K));
  if (state.range(2) >= 0) prior.low_rank_max = state.range(2);  // force a path (-1: the default rule)
  bpmf::ItemWorkspace work(K);
  std::vector<double> out(K);
  std::uint64_t item = 0;
  for (auto _ : state) {
    bpmf::Stream st(1, 1, 0, item++);
    bpmf::sample_item(prior, 2.0, other.data(), index.data(), value.data(), n, st, work, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["K"] = K;
  state.counters["ratings"] = n;
}

}  // namespace

BENCHMARK(BM_SampleItem)
    ->ArgsProduct({{16, 32, 64}, {0, 1, 3, 6, 10, 16, 30, 150}, {-1, 0, 1000}})
    ->ArgNames({"K", "ratings", "low_rank_max"});
BENCHMARK_MAIN();
