// The per-item kernel of the Gibbs sampler: draw one latent vector from its
// conditional Gaussian (Salakhutdinov & Mnih 2008, eq. 12-13)
//   precision P = Lambda + alpha G G^T,  mean = P^-1 (Lambda mu + alpha G r),
// G = the rated items' vectors (K x n), r = the centred ratings. Two exact paths:
// - dense (many ratings): Cholesky P = L L^T, u = mean + L^-T z;
// - low rank (few ratings, n <= ItemPrior::low_rank_max): u = P^-1 (b + eta) with
//   eta = L_Lambda z1 + sqrt(alpha) G z2 ~ N(0, P), applied through the Woodbury
//   identity P^-1 = S - A (I/alpha + G^T A)^-1 A^T, S = Lambda^-1, A = S G: O(n K^2)
//   instead of a K x K Cholesky per item (ChEMBL's compounds have ~3 ratings).
// Which path an item takes depends on its rating count only, so a run stays the
// same bits for any partition of the items.
#pragma once
#include "bpmf/bits.hpp"  // before Eigen: refuses flags that change the bits
#include <Eigen/Dense>
#include <cstdint>

#include "bpmf/random.hpp"

namespace bpmf {

// Hyperparameters in the forms the kernel needs, computed once per half-iteration.
struct ItemPrior {
  // Throws hympi::Error(internal) if Lambda is not positive definite.
  ItemPrior(const Eigen::MatrixXd& Lambda, const Eigen::VectorXd& mu);
  Eigen::MatrixXd Lambda;
  Eigen::VectorXd Lambda_mu, mu;
  Eigen::MatrixXd covariance;    // S = Lambda^-1
  Eigen::MatrixXd prior_factor;  // L_Lambda^-T (upper triangular): mu + prior_factor z ~ N(mu, S)
  // Items with at most this many ratings take the low-rank path (default_low_rank_max);
  // tests set it to check both paths.
  std::int64_t low_rank_max;
};

// Items with at most this many ratings take the low-rank path by default: below about
// K/2 ratings it is the cheaper one (hympi-bpmf-kernel-bench).
inline std::int64_t default_low_rank_max(int K) {
  return K / 2;
}

// The time to sample an item with n ratings on its default path, in ~ns on the
// development VM: a linear fit of hympi-bpmf-kernel-bench at K = 16, 32, 64. The
// sampler balances its partition by it (a fixed cost of ~6 ratings per low-rank item).
std::int64_t item_cost(std::int64_t n, int K);

// Scratch space reused across items (no allocation in the inner loop).
class ItemWorkspace {
 public:
  explicit ItemWorkspace(int K) : precision(K, K), rhs(K), z(K), y(K), gathered(K, 0) {}
  Eigen::MatrixXd precision;
  Eigen::VectorXd rhs, z, y;
  Eigen::MatrixXd gathered;  // dense: G; low rank: A = S G
  Eigen::MatrixXd small;     // low rank: I/alpha + G^T A (n x n)
  Eigen::VectorXd w;         // low rank: n-vectors
};

// `other` is the other side's latent matrix, K doubles per item, item-major.
// `index`/`value` are this item's n ratings (other-side index, centred value).
// Writes K doubles to `out`. Throws hympi::Error(internal) if the precision is not
// positive definite or the draw is not finite (non-finite input).
void sample_item(const ItemPrior& prior, double alpha, const double* other, const std::int32_t* index,
                 const double* value, std::int64_t n, Stream& stream, ItemWorkspace& work, double* out);

}  // namespace bpmf
