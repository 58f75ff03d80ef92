#include "bpmf/item_sampler.hpp"

#include "hympi/error.hpp"

namespace bpmf {

void sample_item(const ItemPrior& prior, double alpha, const double* other, const std::int32_t* index,
                 const double* value, std::int64_t n, Stream& stream, ItemWorkspace& work, double* out) {
  const auto K = prior.Lambda.rows();
  work.precision = prior.Lambda;
  work.rhs = prior.Lambda_mu;
  if (n > 0) {
    // Gather the rated items' vectors once; one rank-n update (SYRK) beats n rank-1 updates.
    if (work.gathered.cols() < n) work.gathered.resize(K, n);
    for (std::int64_t r = 0; r < n; ++r) {
      const Eigen::Map<const Eigen::VectorXd> v(other + static_cast<std::int64_t>(index[r]) * K, K);
      work.gathered.col(r) = v;
      work.rhs.noalias() += (alpha * value[r]) * v;
    }
    work.precision.selfadjointView<Eigen::Lower>().rankUpdate(work.gathered.leftCols(n), alpha);
  }
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(work.precision);  // in place, lower triangle
  if (llt.info() != Eigen::Success)
    throw hympi::Error(hympi::ErrorCode::internal,
                       "bpmf: an item's conditional precision is not positive definite (non-finite data?)");
  for (Eigen::Index k = 0; k < K; ++k) work.z(k) = stream.normal();
  Eigen::Map<Eigen::VectorXd> u(out, K);
  u = llt.solve(work.rhs);
  llt.matrixU().solveInPlace(work.z);
  u += work.z;
  // LLT does not notice NaN (comparisons with NaN are false); the draw does.
  if (!u.allFinite())
    throw hympi::Error(hympi::ErrorCode::internal, "bpmf: an item's sample is not finite (non-finite data?)");
}

}  // namespace bpmf
