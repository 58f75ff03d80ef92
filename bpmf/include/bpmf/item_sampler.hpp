// The per-item kernel of the Gibbs sampler: draw one latent vector from its
// conditional Gaussian (Salakhutdinov & Mnih 2008, eq. 12-13)
//   precision P = Lambda + alpha sum_j v_j v_j^T,  mean = P^-1 (Lambda mu + alpha sum_j r_j v_j)
// through a Cholesky factorization P = L L^T: u = mean + L^-T z.
#pragma once
#include <Eigen/Dense>
#include <cstdint>

#include "bpmf/random.hpp"

namespace bpmf {

// Hyperparameters in the form the kernel needs (Lambda mu precomputed once per half-iteration).
struct ItemPrior {
  Eigen::MatrixXd Lambda;
  Eigen::VectorXd Lambda_mu;
};

// Scratch space reused across items (no allocation in the inner loop).
class ItemWorkspace {
 public:
  explicit ItemWorkspace(int K) : precision(K, K), rhs(K), z(K), gathered(K, 0) {}
  Eigen::MatrixXd precision;
  Eigen::VectorXd rhs, z;
  Eigen::MatrixXd gathered;
};

// `other` is the other side's latent matrix, K doubles per item, item-major.
// `index`/`value` are this item's n ratings (other-side index, centred value).
// Writes K doubles to `out`. Throws hympi::Error(internal) if the precision is not
// positive definite (non-finite input).
void sample_item(const ItemPrior& prior, double alpha, const double* other, const std::int32_t* index,
                 const double* value, std::int64_t n, Stream& stream, ItemWorkspace& work, double* out);

}  // namespace bpmf
