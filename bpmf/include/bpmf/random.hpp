// Counter-based random numbers (Random123 Philox4x64). A stream is named by
// (seed, iteration, side, item): the numbers an item gets never depend on which
// rank samples it, how many ranks there are, or what was drawn before. That is
// what makes a run bitwise reproducible for any rank count, layout and policy.
#pragma once
#include <Random123/philox.h>

#include <cstdint>

namespace bpmf {

enum class Side : std::uint64_t { rows = 0, cols = 1 };

// Item index of the stream that draws a side's hyperparameters (identical on all ranks).
constexpr std::uint64_t kHyperItem = ~std::uint64_t{0};
// Iteration index of the initial latent vectors (Gibbs iterations count from 1).
constexpr std::uint64_t kInitIteration = 0;

class Stream {
 public:
  Stream(std::uint64_t seed, std::uint64_t iteration, std::uint64_t side, std::uint64_t item);
  Stream(std::uint64_t seed, std::uint64_t iteration, Side side, std::uint64_t item)
      : Stream(seed, iteration, static_cast<std::uint64_t>(side), item) {}

  std::uint64_t bits();           // 64 random bits
  double uniform();               // in (0, 1), never 0 or 1
  double normal();                // standard normal (Box-Muller)
  double gamma(double shape);     // Gamma(shape, scale 1), shape > 0 (Marsaglia-Tsang)
  double chi_square(double dof);  // = 2 Gamma(dof/2)

 private:
  using Rng = r123::Philox4x64;
  Rng::ctr_type counter_;
  Rng::key_type key_;
  Rng::ctr_type block_;
  int used_ = 4;
  bool has_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

}  // namespace bpmf
