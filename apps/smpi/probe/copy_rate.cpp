// Copy bandwidth of this machine's cores, alone and all at once: the calibration of the
// simulator's on-node copy rules (apps/smpi/glue/onnode_cost.cpp, make_platform.py).
// Build and run: g++ -O2 -pthread apps/smpi/probe/copy_rate.cpp -o copy_rate && ./copy_rate [MiB] [threads]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

// GB/s of repeated memcpy of `bytes` (buffers touched first, best of 5 rounds).
double copy_gbps(std::size_t bytes) {
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 10; ++i) std::memcpy(dst.data(), src.data(), bytes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, 10.0 * static_cast<double>(bytes) / s / 1e9);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  const int threads = argc > 2 ? std::atoi(argv[2]) : static_cast<int>(std::thread::hardware_concurrency());
  if (mib == 0 || threads < 1) {
    std::fprintf(stderr, "usage: copy_rate [MiB > 0] [threads >= 1]\n");
    return 2;
  }
  const std::size_t bytes = mib << 20;
  std::printf("one core: %.2f GB/s (%zu MiB copies)\n", copy_gbps(bytes), mib);
  std::vector<double> rates(static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back([&rates, t, bytes] { rates[t] = copy_gbps(bytes); });
  double sum = 0;
  for (int t = 0; t < threads; ++t) {
    pool[t].join();
    sum += rates[t];
  }
  std::printf("%d cores at once: %.2f GB/s in all\n", threads, sum);
  return 0;
}
