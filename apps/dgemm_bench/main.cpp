// hympi-dgemm-bench: the rate of the local SUMMA update C(lm x ln) += A(lm x w) * B(w x ln)
// at the panel shapes the driver uses, one OpenBLAS thread unless OPENBLAS_NUM_THREADS says otherwise.
// Arguments: lm, ln, w. Default shapes: n = 4096 on 2 ranks (2048 x 4096 local C) with
// w = 64..1024, and the per-core sizes 8, 64, 128, 256 of the Ori/Hy SUMMA comparison.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <vector>

namespace {

void BM_LocalUpdate(benchmark::State& state) {
  const int lm = static_cast<int>(state.range(0)), ln = static_cast<int>(state.range(1)),
            w = static_cast<int>(state.range(2));
  std::vector<double> a(static_cast<std::size_t>(lm) * w, 0.5), b(static_cast<std::size_t>(w) * ln, 0.25),
      c(static_cast<std::size_t>(lm) * ln, 0.0);
  for (auto _ : state) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, lm, ln, w, 1.0, a.data(), lm, b.data(), w, 1.0, c.data(),
                lm);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["GF/s"] =
      benchmark::Counter(2.0 * lm * ln * w, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void Shapes(benchmark::internal::Benchmark* bench) {
  bench->ArgNames({"lm", "ln", "w"});
  for (int w : {64, 128, 256, 512, 1024}) bench->Args({2048, 4096, w});  // n = 4096, 2x1 grid
  for (int w : {64, 256}) bench->Args({4096, 2048, w});                  // n = 4096, 1x2 grid
  for (int s : {8, 64, 128, 256}) bench->Args({s, s, s});                // per-core blocks, b = s
  bench->Args({1024, 1024, 1024});                                       // square reference
}

BENCHMARK(BM_LocalUpdate)->Apply(Shapes)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
