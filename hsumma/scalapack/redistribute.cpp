#include "redistribute.hpp"

#include <limits>
#include <vector>

#include "hympi/error.hpp"

namespace hympi::hsumma::scalapack {

namespace {

// The indices of an axis that a grid row (column) owns, ascending.
std::vector<std::int64_t> owned(const Axis& axis, int me) {
  std::vector<std::int64_t> out;
  for (std::int64_t t = 0; t < axis.size(); ++t)
    if (axis.owner[static_cast<std::size_t>(t)] == me) out.push_back(t);
  return out;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displ(counts.size() + 1, 0);
  std::int64_t sum = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displ[r] = static_cast<int>(sum);
    sum += counts[r];
  }
  require(sum <= std::numeric_limits<int>::max(), "pdgemm: a local block exceeds 2^31 elements");
  displ.back() = static_cast<int>(sum);
  return displ;
}

}  // namespace

// Both sides walk the elements in one canonical order, column-major in src's
// coordinates; every rank then finds its pieces in each message in that order,
// so no indices travel.
void redistribute(const GridPos& g, const SourceMatrix& src, bool transpose, const DistMatrix& dst, double alpha,
                  double beta) {
  const auto at = [](const Axis& a, std::int64_t t) { return a.owner[static_cast<std::size_t>(t)]; };
  const auto loc = [](const Axis& a, std::int64_t t) { return a.local[static_cast<std::size_t>(t)]; };
  const std::size_t size = static_cast<std::size_t>(g.rows) * static_cast<std::size_t>(g.cols);
  const std::vector<std::int64_t> src_r = owned(src.rows, g.my_row), src_c = owned(src.cols, g.my_col);
  const std::vector<std::int64_t> dst_r = owned(dst.rows, g.my_row), dst_c = owned(dst.cols, g.my_col);
  // Element src(r, c) lands at dst(r, c), or dst(c, r) transposed.
  const auto dst_rank = [&](std::int64_t r, std::int64_t c) {
    return transpose ? at(dst.rows, c) * g.cols + at(dst.cols, r) : at(dst.rows, r) * g.cols + at(dst.cols, c);
  };
  const auto src_rank = [&](std::int64_t r, std::int64_t c) { return at(src.rows, r) * g.cols + at(src.cols, c); };

  std::vector<int> send_count(size, 0), recv_count(size, 0);
  for (std::int64_t c : src_c)
    for (std::int64_t r : src_r) ++send_count[static_cast<std::size_t>(dst_rank(r, c))];
  // dst walked in src's column-major order: by dst columns, or by dst rows when transposed.
  const auto walk_dst = [&](auto&& visit) {
    if (!transpose) {
      for (std::int64_t c : dst_c)
        for (std::int64_t r : dst_r) visit(r, c, dst.data + loc(dst.cols, c) * dst.ld + loc(dst.rows, r));
    } else {
      for (std::int64_t c : dst_r)
        for (std::int64_t r : dst_c) visit(r, c, dst.data + loc(dst.cols, r) * dst.ld + loc(dst.rows, c));
    }
  };
  walk_dst([&](std::int64_t r, std::int64_t c, double*) { ++recv_count[static_cast<std::size_t>(src_rank(r, c))]; });
  const std::vector<int> send_displ = displacements(send_count), recv_displ = displacements(recv_count);

  std::vector<double> send(static_cast<std::size_t>(send_displ.back()));
  std::vector<double> recv(static_cast<std::size_t>(recv_displ.back()));
  std::vector<int> next(send_displ.begin(), send_displ.end() - 1);
  for (std::int64_t c : src_c) {
    const double* column = src.data + loc(src.cols, c) * src.ld;
    for (std::int64_t r : src_r)
      send[static_cast<std::size_t>(next[static_cast<std::size_t>(dst_rank(r, c))]++)] = column[loc(src.rows, r)];
  }
  HYMPI_CHECK_MPI(MPI_Alltoallv(send.data(), send_count.data(), send_displ.data(), MPI_DOUBLE, recv.data(),
                                recv_count.data(), recv_displ.data(), MPI_DOUBLE, g.comm));
  next.assign(recv_displ.begin(), recv_displ.end() - 1);
  walk_dst([&](std::int64_t r, std::int64_t c, double* out) {
    const double v = recv[static_cast<std::size_t>(next[static_cast<std::size_t>(src_rank(r, c))]++)];
    *out = beta == 0.0 ? alpha * v : alpha * v + beta * *out;
  });
}

}  // namespace hympi::hsumma::scalapack
