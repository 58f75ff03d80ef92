// The Normal-Wishart hyperprior of BPMF (Salakhutdinov & Mnih 2008, eq. 14):
// given the latent vectors of one side, draw (mu, Lambda) from the posterior
//   Lambda ~ Wishart(W*, nu*),  mu ~ N(mu*, (beta* Lambda)^-1).
// The input is the exact global count, sum and sum of outer products.
#pragma once
#include "bpmf/bits.hpp"  // before Eigen: refuses flags that change the bits
#include <Eigen/Dense>

#include "bpmf/random.hpp"

namespace bpmf {

struct NormalWishartPrior {
  Eigen::VectorXd mu0;
  double beta0 = 2.0;
  double nu0 = 0.0;
  Eigen::MatrixXd W0;
  // The BPMF default: mu0 = 0, beta0 = 2, nu0 = K, W0 = I.
  static NormalWishartPrior standard(int K);
};

struct LatentStats {
  double count = 0.0;
  Eigen::VectorXd sum;        // sum of u
  Eigen::MatrixXd outer_sum;  // sum of u u^T
};

struct NormalWishartPosterior {
  Eigen::VectorXd mu;
  double beta = 0.0;
  double nu = 0.0;
  Eigen::MatrixXd W;
};

struct Hyper {
  Eigen::VectorXd mu;
  Eigen::MatrixXd Lambda;
};

NormalWishartPosterior posterior(const NormalWishartPrior& prior, const LatentStats& stats);

// Bartlett decomposition: Lambda = L A A^T L^T, W = L L^T, A lower triangular with
// A_ii = sqrt(chi2(nu - i)) and standard normals below the diagonal.
Eigen::MatrixXd sample_wishart(const Eigen::MatrixXd& W, double nu, Stream& stream);

Hyper sample_normal_wishart(const NormalWishartPosterior& post, Stream& stream);

}  // namespace bpmf
