// The hyperparameter sampler against known moments:
//   E[Lambda] = nu W,  Var(Lambda_ij) = nu (W_ij^2 + W_ii W_jj),
//   E[mu] = mu*,       Cov(mu) = E[(beta Lambda)^-1] = W^-1 / (beta (nu - K - 1)),
// and the posterior parameters against a direct evaluation of SM08 eq. 14.
#include "bpmf/normal_wishart.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

Eigen::MatrixXd test_scale(int K) {
  Eigen::MatrixXd W(K, K);
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) W(i, j) = (i == j ? 1.0 + 0.25 * i : 0.3 / (1 + std::abs(i - j)));
  return W;
}

TEST(Wishart, MeanAndVarianceMatchTheory) {
  const int K = 4, n = 40000;
  const double nu = 9.0;
  const Eigen::MatrixXd W = test_scale(K);
  Eigen::MatrixXd m1 = Eigen::MatrixXd::Zero(K, K), m2 = Eigen::MatrixXd::Zero(K, K);
  bpmf::Stream s(3, 1, 0, bpmf::kHyperItem);
  for (int t = 0; t < n; ++t) {
    const Eigen::MatrixXd L = bpmf::sample_wishart(W, nu, s);
    m1 += L;
    m2 += L.cwiseProduct(L);
  }
  m1 /= n;
  m2 /= n;
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) {
      const double mean = nu * W(i, j), var = nu * (W(i, j) * W(i, j) + W(i, i) * W(j, j));
      EXPECT_NEAR(m1(i, j), mean, 5 * std::sqrt(var / n)) << "entry " << i << "," << j;
      EXPECT_NEAR(m2(i, j) - m1(i, j) * m1(i, j), var, 0.06 * var) << "entry " << i << "," << j;
    }
}

TEST(NormalWishart, PosteriorParametersFollowTheFormulas) {
  const int K = 3;
  auto prior = bpmf::NormalWishartPrior::standard(K);
  EXPECT_EQ(prior.beta0, 2.0);
  EXPECT_EQ(prior.nu0, K);
  EXPECT_TRUE(prior.W0.isIdentity());
  EXPECT_TRUE(prior.mu0.isZero());

  // Three vectors; stats as the sampler builds them.
  Eigen::MatrixXd U(K, 3);
  U << 1, 2, 0.5, -1, 0, 3, 0.2, 0.1, -0.7;
  bpmf::LatentStats st;
  st.count = 3;
  st.sum = U.rowwise().sum();
  st.outer_sum = U * U.transpose();
  const auto post = bpmf::posterior(prior, st);

  const Eigen::VectorXd mean = st.sum / 3;
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(K, K);
  for (int c = 0; c < 3; ++c) S += (U.col(c) - mean) * (U.col(c) - mean).transpose();
  S /= 3;  // SM08's S-bar
  const Eigen::MatrixXd W_inv =
      Eigen::MatrixXd::Identity(K, K) + 3 * S + (2.0 * 3 / (2.0 + 3)) * mean * mean.transpose();
  EXPECT_DOUBLE_EQ(post.beta, 5.0);
  EXPECT_DOUBLE_EQ(post.nu, K + 3.0);
  EXPECT_TRUE(post.mu.isApprox(3 * mean / 5.0, 1e-12));
  EXPECT_TRUE(post.W.isApprox(W_inv.inverse(), 1e-10));
}

TEST(NormalWishart, DrawsHaveTheKnownMoments) {
  const int K = 3, n = 40000;
  bpmf::NormalWishartPosterior post;
  post.mu = Eigen::Vector3d(0.5, -1.0, 2.0);
  post.beta = 4.0;
  post.nu = 10.0;
  post.W = test_scale(K);
  Eigen::VectorXd mu_sum = Eigen::VectorXd::Zero(K);
  Eigen::MatrixXd mu_outer = Eigen::MatrixXd::Zero(K, K), lambda_sum = Eigen::MatrixXd::Zero(K, K);
  for (int t = 0; t < n; ++t) {
    bpmf::Stream s(9, static_cast<std::uint64_t>(t), 0, bpmf::kHyperItem);
    const auto h = bpmf::sample_normal_wishart(post, s);
    mu_sum += h.mu;
    mu_outer += (h.mu - post.mu) * (h.mu - post.mu).transpose();
    lambda_sum += h.Lambda;
  }
  const Eigen::MatrixXd cov = post.W.inverse() / (post.beta * (post.nu - K - 1));
  for (int i = 0; i < K; ++i) {
    EXPECT_NEAR(mu_sum(i) / n, post.mu(i), 5 * std::sqrt(cov(i, i) / n));
    for (int j = 0; j < K; ++j) {
      EXPECT_NEAR(mu_outer(i, j) / n, cov(i, j), 0.05 * std::sqrt(cov(i, i) * cov(j, j)));
      EXPECT_NEAR(lambda_sum(i, j) / n, post.nu * post.W(i, j),
                  0.03 * post.nu * std::sqrt(post.W(i, i) * post.W(j, j)));
    }
  }
}

TEST(NormalWishart, SameStreamSameDraw) {
  auto prior = bpmf::NormalWishartPrior::standard(5);
  bpmf::LatentStats st{10.0, Eigen::VectorXd::Constant(5, 1.0), 3.0 * Eigen::MatrixXd::Identity(5, 5)};
  const auto post = bpmf::posterior(prior, st);
  bpmf::Stream a(1, 7, 1, bpmf::kHyperItem), b(1, 7, 1, bpmf::kHyperItem);
  const auto ha = bpmf::sample_normal_wishart(post, a), hb = bpmf::sample_normal_wishart(post, b);
  EXPECT_EQ(ha.mu, hb.mu);
  EXPECT_EQ(ha.Lambda, hb.Lambda);
}

}  // namespace
