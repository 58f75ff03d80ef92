#include "redistribute.hpp"

#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "hympi/error.hpp"

namespace hympi::hsumma::scalapack {

namespace {

// Consecutive indices [first, first + len) of an axis that this rank owns
// (`mine`), whose local indices run on by one both in `mine` and in `other`
// and which one process owns in `other`: one memcpy-able piece of a column.
struct Run {
  std::int64_t first, len;
  int other_owner;
};

std::vector<Run> runs(const Axis& mine, int me, const Axis& other) {
  std::vector<Run> out;
  const auto at = [](const std::vector<std::int64_t>& v, std::int64_t t) { return v[static_cast<std::size_t>(t)]; };
  for (std::int64_t t = 0; t < mine.size(); ++t) {
    if (mine.owner[static_cast<std::size_t>(t)] != me) continue;
    const int owner = other.owner[static_cast<std::size_t>(t)];
    if (!out.empty()) {
      Run& last = out.back();
      const std::int64_t prev = last.first + last.len - 1;
      if (prev == t - 1 && last.other_owner == owner && at(mine.local, t) == at(mine.local, prev) + 1 &&
          at(other.local, t) == at(other.local, prev) + 1) {
        ++last.len;
        continue;
      }
    }
    out.push_back({t, 1, owner});
  }
  return out;
}

std::vector<std::int64_t> owned(const Axis& axis, int me) {
  std::vector<std::int64_t> out;
  for (std::int64_t t = 0; t < axis.size(); ++t)
    if (axis.owner[static_cast<std::size_t>(t)] == me) out.push_back(t);
  return out;
}

std::vector<int> displacements(const std::vector<std::int64_t>& counts) {
  std::vector<int> displ(counts.size() + 1, 0);
  std::int64_t sum = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displ[r] = static_cast<int>(sum);
    sum += counts[r];
    require(sum <= std::numeric_limits<int>::max(), "pdgemm: more than 2^31 elements to redistribute on one rank");
  }
  displ.back() = static_cast<int>(sum);
  return displ;
}

// out[i * stride] = alpha * in[i] + beta * out[i * stride]; beta = 0 never reads out.
void combine(const double* in, std::int64_t len, double* out, std::int64_t stride, double alpha, double beta) {
  if (stride == 1 && alpha == 1.0 && beta == 0.0) {
    std::memcpy(out, in, sizeof(double) * static_cast<std::size_t>(len));
    return;
  }
  for (std::int64_t i = 0; i < len; ++i) {
    double& y = out[i * stride];
    y = beta == 0.0 ? alpha * in[i] : alpha * in[i] + beta * y;
  }
}

}  // namespace

// Both sides walk the elements in one canonical order, column-major in src's
// coordinates (r along src rows, c along src columns), so every rank finds its
// pieces in each message in that order and no indices travel. Pieces are runs
// along r; pieces that stay on this rank go straight from src to dst.
void redistribute(const GridPos& g, const SourceMatrix& src, bool transpose, const DistMatrix& dst, double alpha,
                  double beta) {
  const auto owner = [](const Axis& a, std::int64_t t) { return a.owner[static_cast<std::size_t>(t)]; };
  const auto local = [](const Axis& a, std::int64_t t) { return a.local[static_cast<std::size_t>(t)]; };
  int me = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(g.comm, &me));
  const std::size_t size = static_cast<std::size_t>(g.rows) * static_cast<std::size_t>(g.cols);
  // dst's axes along r and c, and the step between consecutive r in dst's storage.
  const Axis& dst_r = transpose ? dst.cols : dst.rows;
  const Axis& dst_c = transpose ? dst.rows : dst.cols;
  const int my_dst_r = transpose ? g.my_col : g.my_row, my_dst_c = transpose ? g.my_row : g.my_col;
  const std::int64_t r_stride = transpose ? dst.ld : 1;
  const auto dst_at = [&](std::int64_t r, std::int64_t c) {
    return transpose ? dst.data + local(dst.cols, r) * dst.ld + local(dst.rows, c)
                     : dst.data + local(dst.cols, c) * dst.ld + local(dst.rows, r);
  };
  const auto dst_rank = [&](int r_owner, std::int64_t c) {
    return transpose ? owner(dst.rows, c) * g.cols + r_owner : r_owner * g.cols + owner(dst.cols, c);
  };

  const std::vector<Run> send_runs = runs(src.rows, g.my_row, dst_r), recv_runs = runs(dst_r, my_dst_r, src.rows);
  const std::vector<std::int64_t> send_cols = owned(src.cols, g.my_col), recv_cols = owned(dst_c, my_dst_c);
  std::vector<std::int64_t> send_count(size, 0), recv_count(size, 0);
  for (std::int64_t c : send_cols)
    for (const Run& run : send_runs) send_count[static_cast<std::size_t>(dst_rank(run.other_owner, c))] += run.len;
  for (std::int64_t c : recv_cols)
    for (const Run& run : recv_runs)
      recv_count[static_cast<std::size_t>(run.other_owner * g.cols + owner(src.cols, c))] += run.len;
  send_count[static_cast<std::size_t>(me)] = recv_count[static_cast<std::size_t>(me)] = 0;  // copied directly
  const std::vector<int> send_displ = displacements(send_count), recv_displ = displacements(recv_count);

  std::unique_ptr<double[]> send(new double[static_cast<std::size_t>(send_displ.back()) + 1]);
  std::unique_ptr<double[]> recv(new double[static_cast<std::size_t>(recv_displ.back()) + 1]);
  std::vector<int> next(send_displ.begin(), send_displ.end() - 1);
  for (std::int64_t c : send_cols) {
    const double* column = src.data + local(src.cols, c) * src.ld;
    for (const Run& run : send_runs) {
      const double* in = column + local(src.rows, run.first);
      const int rank = dst_rank(run.other_owner, c);
      if (rank == me) {
        combine(in, run.len, dst_at(run.first, c), r_stride, alpha, beta);
      } else {
        std::memcpy(send.get() + next[static_cast<std::size_t>(rank)], in, sizeof(double) * run.len);
        next[static_cast<std::size_t>(rank)] += static_cast<int>(run.len);
      }
    }
  }
  std::vector<int> send_n(size), recv_n(size);
  for (std::size_t r = 0; r < size; ++r)
    send_n[r] = static_cast<int>(send_count[r]), recv_n[r] = static_cast<int>(recv_count[r]);
  HYMPI_CHECK_MPI(MPI_Alltoallv(send.get(), send_n.data(), send_displ.data(), MPI_DOUBLE, recv.get(), recv_n.data(),
                                recv_displ.data(), MPI_DOUBLE, g.comm));
  next.assign(recv_displ.begin(), recv_displ.end() - 1);
  for (std::int64_t c : recv_cols)
    for (const Run& run : recv_runs) {
      const int rank = run.other_owner * g.cols + owner(src.cols, c);
      if (rank == me) continue;  // copied above
      combine(recv.get() + next[static_cast<std::size_t>(rank)], run.len, dst_at(run.first, c), r_stride, alpha, beta);
      next[static_cast<std::size_t>(rank)] += static_cast<int>(run.len);
    }
}

}  // namespace hympi::hsumma::scalapack
