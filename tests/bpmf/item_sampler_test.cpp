// The per-item kernel draws from N(P^-1 b, P^-1) with P = Lambda + alpha sum v v^T,
// b = Lambda mu + alpha sum r v: checked against a direct dense computation, on the
// dense (Cholesky) path and on the low-rank (Woodbury) path alike.
#include "bpmf/item_sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hympi/error.hpp"

namespace {

class ItemSamplerPath : public testing::TestWithParam<std::int64_t> {};  // ItemPrior::low_rank_max

TEST_P(ItemSamplerPath, MomentsMatchTheConditionalGaussian) {
  const int K = 3;
  // Four "other side" items, three of them rated.
  const std::vector<double> other = {1.0, 0.5, -0.2, 0.0, 1.0, 0.3, -0.4, 0.2, 1.0, 9.0, 9.0, 9.0};
  const std::vector<std::int32_t> index = {0, 2, 1};
  const std::vector<double> value = {1.5, -0.5, 0.25};
  const double alpha = 2.0;
  Eigen::MatrixXd Lambda(K, K);
  Lambda << 1.5, 0.3, -0.2, 0.3, 1.2, 0.1, -0.2, 0.1, 0.9;
  bpmf::ItemPrior prior(Lambda, Eigen::Vector3d(0.1, -0.2, 0.3));
  prior.low_rank_max = GetParam();

  Eigen::MatrixXd P = prior.Lambda;
  Eigen::VectorXd b = Lambda * Eigen::Vector3d(0.1, -0.2, 0.3);
  for (std::size_t r = 0; r < index.size(); ++r) {
    const Eigen::Map<const Eigen::VectorXd> v(other.data() + index[r] * K, K);
    P += alpha * v * v.transpose();
    b += alpha * value[r] * v;
  }
  const Eigen::MatrixXd cov = P.inverse();
  const Eigen::VectorXd mean = cov * b;

  const int n = 100000;
  bpmf::ItemWorkspace work(K);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(K);
  Eigen::MatrixXd outer = Eigen::MatrixXd::Zero(K, K);
  std::vector<double> out(K);
  for (int t = 0; t < n; ++t) {
    bpmf::Stream s(4, 1, 0, static_cast<std::uint64_t>(t));
    bpmf::sample_item(prior, alpha, other.data(), index.data(), value.data(), 3, s, work, out.data());
    const Eigen::Map<const Eigen::VectorXd> u(out.data(), K);
    sum += u;
    outer += (u - mean) * (u - mean).transpose();
  }
  for (int i = 0; i < K; ++i) {
    EXPECT_NEAR(sum(i) / n, mean(i), 5 * std::sqrt(cov(i, i) / n));
    for (int j = 0; j < K; ++j) EXPECT_NEAR(outer(i, j) / n, cov(i, j), 0.03 * std::sqrt(cov(i, i) * cov(j, j)));
  }
}

TEST_P(ItemSamplerPath, NoRatingsDrawsFromThePrior) {
  const int K = 2;
  Eigen::MatrixXd Lambda(K, K);
  Lambda << 4.0, 1.0, 1.0, 2.0;
  bpmf::ItemPrior prior(Lambda, Eigen::Vector2d(1.0, -2.0));
  prior.low_rank_max = GetParam() - 1;  // 0 ratings: -1 takes the dense path
  const Eigen::MatrixXd cov = Lambda.inverse();
  bpmf::ItemWorkspace work(K);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(K);
  Eigen::MatrixXd outer = Eigen::MatrixXd::Zero(K, K);
  double out[2];
  const int n = 50000;
  for (int t = 0; t < n; ++t) {
    bpmf::Stream s(5, 1, 1, static_cast<std::uint64_t>(t));
    bpmf::sample_item(prior, 2.0, nullptr, nullptr, nullptr, 0, s, work, out);
    const Eigen::Map<const Eigen::VectorXd> u(out, K);
    sum += u;
    outer += (u - prior.mu) * (u - prior.mu).transpose();
  }
  EXPECT_NEAR(sum(0) / n, 1.0, 0.01);
  EXPECT_NEAR(sum(1) / n, -2.0, 0.01);
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) EXPECT_NEAR(outer(i, j) / n, cov(i, j), 0.03 * std::sqrt(cov(i, i) * cov(j, j)));
}

// 0: every rated item dense; 1000: every item low rank.
INSTANTIATE_TEST_SUITE_P(BothPaths, ItemSamplerPath, testing::Values(0, 1000));

TEST_P(ItemSamplerPath, NonFiniteDataIsAnError) {
  const int K = 2;
  const std::vector<double> other = {std::nan(""), 1.0};
  const std::int32_t index = 0;
  const double value = 1.0;
  bpmf::ItemPrior prior(Eigen::MatrixXd::Identity(K, K), Eigen::VectorXd::Zero(K));
  prior.low_rank_max = GetParam();
  bpmf::ItemWorkspace work(K);
  bpmf::Stream s(1, 1, 0, 0);
  double out[2];
  EXPECT_THROW(bpmf::sample_item(prior, 2.0, other.data(), &index, &value, 1, s, work, out), std::runtime_error);
}

// The partition's weights: positive, growing with the ratings on each path, and an
// item's fixed cost worth several ratings (ratings + 1 undercounted it).
TEST(ItemSampler, CostModel) {
  for (int K : {8, 32, 64}) {
    const auto low = bpmf::default_low_rank_max(K);
    EXPECT_GT(bpmf::item_cost(0, K), 0);
    for (std::int64_t n = 1; n <= 4 * K; ++n)
      if (n != low + 1) {
        EXPECT_GT(bpmf::item_cost(n, K), bpmf::item_cost(n - 1, K)) << "K " << K << " n " << n;
      }
    EXPECT_GT(bpmf::item_cost(0, K), 4 * (bpmf::item_cost(1, K) - bpmf::item_cost(0, K)));
  }
}

TEST(ItemSampler, APriorThatIsNotPositiveDefiniteIsAnError) {
  EXPECT_THROW(bpmf::ItemPrior(-Eigen::MatrixXd::Identity(2, 2), Eigen::VectorXd::Zero(2)), hympi::Error);
}

}  // namespace
