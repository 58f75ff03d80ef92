#include "bpmf/synthetic.hpp"

#include <cmath>
#include <functional>
#include <vector>

#include "bpmf/random.hpp"
#include "hympi/error.hpp"

namespace bpmf {

namespace {
// Stream "sides" of the generator, disjoint from the sampler's rows/cols sides.
constexpr std::uint64_t kTrueRows = 100, kTrueCols = 101, kCells = 102;
}  // namespace

void for_each_synthetic(const SyntheticSpec& s, const std::function<void(const Entry&, bool test)>& visit) {
  if (s.rows < 1 || s.cols < 1 || s.rows > (1LL << 31) - 1 || s.cols > (1LL << 31) - 1)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "synthetic data: rows and cols must be in [1, 2^31)");
  if (s.rank < 1) throw hympi::Error(hympi::ErrorCode::invalid_argument, "synthetic data: rank must be >= 1");
  if (!(s.density > 0.0 && s.density <= 1.0))
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "synthetic data: density must be in (0, 1]");
  if (!(s.test_fraction >= 0.0 && s.test_fraction < 1.0))
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "synthetic data: test fraction must be in [0, 1)");
  if (!(s.noise >= 0.0)) throw hympi::Error(hympi::ErrorCode::invalid_argument, "synthetic data: noise must be >= 0");

  const double scale = 1.0 / std::sqrt(static_cast<double>(s.rank));
  auto factors = [&](std::int64_t n, std::uint64_t side) {
    std::vector<double> f(static_cast<std::size_t>(n * s.rank));
    for (std::int64_t i = 0; i < n; ++i) {
      Stream st(s.seed, 0, side, static_cast<std::uint64_t>(i));
      for (int k = 0; k < s.rank; ++k) f[i * s.rank + k] = st.normal() * std::sqrt(scale);
    }
    return f;
  };
  const auto U = factors(s.rows, kTrueRows);
  const auto V = factors(s.cols, kTrueCols);

  for (std::int64_t i = 0; i < s.rows; ++i) {
    Stream st(s.seed, 0, kCells, static_cast<std::uint64_t>(i));
    for (std::int64_t j = 0; j < s.cols; ++j) {
      if (st.uniform() >= s.density) continue;
      double v = s.offset + s.noise * st.normal();
      for (int k = 0; k < s.rank; ++k) v += U[i * s.rank + k] * V[j * s.rank + k];
      const Entry e{static_cast<std::int32_t>(i), static_cast<std::int32_t>(j), v};
      visit(e, st.uniform() < s.test_fraction);
    }
  }
}

SyntheticData generate_synthetic(const SyntheticSpec& s) {
  SyntheticData d;
  d.train.rows = d.test.rows = s.rows;
  d.train.cols = d.test.cols = s.cols;
  for_each_synthetic(s, [&](const Entry& e, bool test) { (test ? d.test : d.train).entries.push_back(e); });
  return d;
}

}  // namespace bpmf
