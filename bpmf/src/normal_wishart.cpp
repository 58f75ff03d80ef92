#include "bpmf/normal_wishart.hpp"

#include "bpmf/fixed_blocking.hpp"
#include "hympi/error.hpp"

namespace bpmf {

namespace {
Eigen::MatrixXd symmetric(const Eigen::MatrixXd& m) {
  return 0.5 * (m + m.transpose());
}

Eigen::MatrixXd cholesky_lower(const Eigen::MatrixXd& m, const char* what) {
  Eigen::LLT<Eigen::MatrixXd> llt(m);
  if (llt.info() != Eigen::Success)
    throw hympi::Error(hympi::ErrorCode::internal,
                       std::string("bpmf: ") + what + " is not positive definite (non-finite latent vectors?)");
  return llt.matrixL();
}
}  // namespace

NormalWishartPrior NormalWishartPrior::standard(int K) {
  NormalWishartPrior p;
  p.mu0 = Eigen::VectorXd::Zero(K);
  p.beta0 = 2.0;
  p.nu0 = K;
  p.W0 = Eigen::MatrixXd::Identity(K, K);
  return p;
}

NormalWishartPosterior posterior(const NormalWishartPrior& prior, const LatentStats& stats) {
  fix_eigen_blocking();
  const double n = stats.count;
  const auto K = prior.mu0.size();
  NormalWishartPosterior post;
  post.beta = prior.beta0 + n;
  post.nu = prior.nu0 + n;
  post.mu = (prior.beta0 * prior.mu0 + stats.sum) / post.beta;
  Eigen::MatrixXd W_inv = prior.W0.inverse();
  if (n > 0) {
    const Eigen::VectorXd mean = stats.sum / n;
    // n S = sum u u^T - n mean mean^T (the scatter about the mean).
    W_inv += stats.outer_sum - n * mean * mean.transpose();
    const Eigen::VectorXd d = prior.mu0 - mean;
    W_inv += (prior.beta0 * n / (prior.beta0 + n)) * d * d.transpose();
  }
  post.W = symmetric(W_inv.llt().solve(Eigen::MatrixXd::Identity(K, K)));
  return post;
}

Eigen::MatrixXd sample_wishart(const Eigen::MatrixXd& W, double nu, Stream& stream) {
  fix_eigen_blocking();
  const auto K = W.rows();
  if (nu <= K - 1)
    throw hympi::Error(hympi::ErrorCode::invalid_argument, "bpmf: Wishart degrees of freedom must exceed K - 1");
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(K, K);
  // Fixed draw order (row by row, diagonal last) so every rank draws the same matrix.
  for (Eigen::Index i = 0; i < K; ++i) {
    for (Eigen::Index j = 0; j < i; ++j) A(i, j) = stream.normal();
    A(i, i) = std::sqrt(stream.chi_square(nu - static_cast<double>(i)));
  }
  const Eigen::MatrixXd LA = cholesky_lower(W, "the Wishart scale matrix") * A.triangularView<Eigen::Lower>();
  return symmetric(LA * LA.transpose());
}

Hyper sample_normal_wishart(const NormalWishartPosterior& post, Stream& stream) {
  Hyper h;
  h.Lambda = sample_wishart(post.W, post.nu, stream);
  // mu ~ N(mu*, (beta Lambda)^-1): mu = mu* + L^-T z with beta Lambda = L L^T.
  Eigen::LLT<Eigen::MatrixXd> llt(post.beta * h.Lambda);
  if (llt.info() != Eigen::Success)
    throw hympi::Error(hympi::ErrorCode::internal, "bpmf: sampled Lambda is not positive definite");
  Eigen::VectorXd z(post.mu.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) z(i) = stream.normal();
  h.mu = post.mu + llt.matrixU().solve(z);
  return h;
}

}  // namespace bpmf
