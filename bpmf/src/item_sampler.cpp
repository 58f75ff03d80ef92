#include "bpmf/item_sampler.hpp"

#include <cmath>

#include "bpmf/fixed_blocking.hpp"
#include "hympi/error.hpp"

namespace bpmf {

namespace {
[[noreturn]] void not_positive_definite(const char* what) {
  throw hympi::Error(hympi::ErrorCode::internal,
                     std::string("bpmf: ") + what + " is not positive definite (non-finite data?)");
}

// Many ratings: P = Lambda + alpha G G^T by one rank-n update (SYRK), its Cholesky
// factor L, u = P^-1 b + L^-T z. (The SYRK splits its sum by Eigen's cache sizes, which
// the sampler fixes: fixed_blocking.hpp.)
void sample_dense(const ItemPrior& prior, double alpha, const double* other, const std::int32_t* index,
                  const double* value, std::int64_t n, Stream& stream, ItemWorkspace& work, double* out) {
  const auto K = prior.Lambda.rows();
  work.precision = prior.Lambda;
  work.rhs = prior.Lambda_mu;
  if (work.gathered.cols() < n) work.gathered.resize(K, n);
  for (std::int64_t r = 0; r < n; ++r) {
    const Eigen::Map<const Eigen::VectorXd> v(other + static_cast<std::int64_t>(index[r]) * K, K);
    work.gathered.col(r) = v;
    work.rhs.noalias() += (alpha * value[r]) * v;
  }
  work.precision.selfadjointView<Eigen::Lower>().rankUpdate(work.gathered.leftCols(n), alpha);
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(work.precision);  // in place, lower triangle
  if (llt.info() != Eigen::Success) not_positive_definite("an item's conditional precision");
  for (Eigen::Index k = 0; k < K; ++k) work.z(k) = stream.normal();
  Eigen::Map<Eigen::VectorXd> u(out, K);
  u = llt.solve(work.rhs);
  llt.matrixU().solveInPlace(work.z);
  u += work.z;
}

// Few ratings: y = S (b + eta) = mu + L_Lambda^-T z1 + A (alpha r + sqrt(alpha) z2),
// then u = P^-1 (b + eta) = y - A C^-1 G^T y with C = I/alpha + G^T A (Woodbury).
void sample_low_rank(const ItemPrior& prior, double alpha, const double* other, const std::int32_t* index,
                     const double* value, std::int64_t n, Stream& stream, ItemWorkspace& work, double* out) {
  const auto K = prior.Lambda.rows();
  for (Eigen::Index k = 0; k < K; ++k) work.z(k) = stream.normal();
  work.y = prior.mu;
  work.y.noalias() += prior.prior_factor.triangularView<Eigen::Upper>() * work.z;
  Eigen::Map<Eigen::VectorXd> u(out, K);
  if (n == 0) {
    u = work.y;
    return;
  }
  if (work.gathered.cols() < n) work.gathered.resize(K, n);
  if (work.small.rows() < n) work.small.resize(n, n);
  if (work.w.size() < n) work.w.resize(n);
  auto A = work.gathered.leftCols(n);
  auto C = work.small.topLeftCorner(n, n);
  auto w = work.w.head(n);
  const double sqrt_alpha = std::sqrt(alpha);
  for (std::int64_t r = 0; r < n; ++r) {
    const Eigen::Map<const Eigen::VectorXd> v(other + static_cast<std::int64_t>(index[r]) * K, K);
    A.col(r).noalias() = prior.covariance * v;
    for (std::int64_t s = 0; s <= r; ++s) {
      const Eigen::Map<const Eigen::VectorXd> vs(other + static_cast<std::int64_t>(index[s]) * K, K);
      C(r, s) = vs.dot(A.col(r));  // = v_s^T S v_r (lower triangle)
    }
    C(r, r) += 1.0 / alpha;
    w(r) = alpha * value[r] + sqrt_alpha * stream.normal();
  }
  work.y.noalias() += A * w;
  for (std::int64_t r = 0; r < n; ++r)
    w(r) = Eigen::Map<const Eigen::VectorXd>(other + static_cast<std::int64_t>(index[r]) * K, K).dot(work.y);
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(C);  // in place, lower triangle
  if (llt.info() != Eigen::Success) not_positive_definite("an item's low-rank correction");
  llt.solveInPlace(w);
  u = work.y;
  u.noalias() -= A * w;
}
}  // namespace

ItemPrior::ItemPrior(const Eigen::MatrixXd& Lambda_, const Eigen::VectorXd& mu_)
    : Lambda(Lambda_),
      Lambda_mu(Lambda_ * mu_),
      mu(mu_),
      low_rank_max(default_low_rank_max(static_cast<int>(Lambda_.rows()))) {
  fix_eigen_blocking();
  const Eigen::LLT<Eigen::MatrixXd> llt(Lambda);
  if (llt.info() != Eigen::Success) not_positive_definite("the prior precision Lambda");
  const auto K = Lambda.rows();
  prior_factor = llt.matrixU().solve(Eigen::MatrixXd::Identity(K, K));  // (L^T)^-1
  covariance = prior_factor * prior_factor.transpose();                 // L^-T L^-1 = Lambda^-1, symmetric
}

std::int64_t item_cost(std::int64_t n, int K) {
  const double k = K, r = static_cast<double>(n);
  const double ns = n <= default_low_rank_max(K) ? 30.0 * k + 5.5 * k * r : 4.25 * k * k + 1.8 * k * r;
  return static_cast<std::int64_t>(ns) + 1;
}

void sample_item(const ItemPrior& prior, double alpha, const double* other, const std::int32_t* index,
                 const double* value, std::int64_t n, Stream& stream, ItemWorkspace& work, double* out) {
  if (n <= prior.low_rank_max)
    sample_low_rank(prior, alpha, other, index, value, n, stream, work, out);
  else
    sample_dense(prior, alpha, other, index, value, n, stream, work, out);
  // LLT does not notice NaN (comparisons with NaN are false); the draw does.
  if (!Eigen::Map<const Eigen::VectorXd>(out, prior.Lambda.rows()).allFinite())
    throw hympi::Error(hympi::ErrorCode::internal, "bpmf: an item's sample is not finite (non-finite data?)");
}

}  // namespace bpmf
