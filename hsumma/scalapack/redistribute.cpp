#include "redistribute.hpp"

#include <cstring>
#include <limits>
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
  Axis::Cursor in_mine(mine), in_other(other);  // t only grows: amortized O(1) reads, no search per item
  std::int64_t mine_last = 0, other_last = 0;   // the local indices of the last item taken
  for (std::int64_t t = 0; t < mine.size(); ++t) {
    const Axis::Run& m = in_mine.at(t);
    if (m.owner != me) continue;
    const Axis::Run& o = in_other.at(t);
    const std::int64_t mine_local = m.local + (t - m.start), other_local = o.local + (t - o.start);
    if (!out.empty()) {
      Run& last = out.back();
      if (last.first + last.len == t && last.other_owner == o.owner && mine_local == mine_last + 1 &&
          other_local == other_last + 1) {
        ++last.len;
        mine_last = mine_local;
        other_last = other_local;
        continue;
      }
    }
    out.push_back({t, 1, o.owner});
    mine_last = mine_local;
    other_last = other_local;
  }
  return out;
}

std::vector<std::int64_t> owned(const Axis& axis, int me) {
  std::vector<std::int64_t> out;
  const std::vector<Axis::Run>& runs = axis.runs();
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (runs[i].owner == me)
      for (std::int64_t t = runs[i].start; t < axis.run_end(i); ++t) out.push_back(t);
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

// out[i * stride] = alpha * x[i] + beta * out[i * stride] (x: in, conjugated
// when `conj`); beta = 0 never reads out. A plain copy is a memcpy.
struct Combine {
  const summa::Element& e;
  const void* alpha;
  const void* beta;
  bool conj, copy;
  Combine(const summa::Element& el, const void* a, const void* b, bool c)
      : e(el), alpha(a), beta(b), conj(c), copy(el.is_one(a) && el.is_zero(b) && !(c && el.complex)) {}
  void operator()(const void* in, std::int64_t len, void* out, std::int64_t stride) const {
    if (stride == 1 && copy)
      std::memcpy(out, in, e.size * static_cast<std::size_t>(len));
    else
      e.combine(in, len, out, stride, alpha, beta, conj);
  }
};

}  // namespace

// Both sides walk the elements in one canonical order, column-major in src's
// coordinates (r along src rows, c along src columns), so every rank finds its
// pieces in each message in that order and no indices travel. Pieces are runs
// along r; pieces that stay on this rank go straight from src to dst.
void redistribute(const GridPos& g, const summa::Element& e, const SourceMatrix& src, Op op, const DistMatrix& dst,
                  const void* alpha, const void* beta) {
  using summa::advance;
  const bool transpose = op != Op::none;
  const Combine combine(e, alpha, beta, op == Op::conj_transpose);
  const auto owner = [](const Axis& a, std::int64_t t) { return a.owner(t); };
  const auto local = [](const Axis& a, std::int64_t t) { return a.local(t); };
  int me = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(g.comm, &me));
  const std::size_t size = static_cast<std::size_t>(g.rows) * static_cast<std::size_t>(g.cols);
  // dst's axes along r and c, and the step between consecutive r in dst's storage.
  const Axis& dst_r = transpose ? dst.cols : dst.rows;
  const Axis& dst_c = transpose ? dst.rows : dst.cols;
  const int my_dst_r = transpose ? g.my_col : g.my_row, my_dst_c = transpose ? g.my_row : g.my_col;
  const std::int64_t r_stride = transpose ? dst.ld : 1;
  const auto dst_at = [&](std::int64_t r, std::int64_t c) {
    return advance(
        dst.data,
        transpose ? local(dst.cols, r) * dst.ld + local(dst.rows, c) : local(dst.cols, c) * dst.ld + local(dst.rows, r),
        e);
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

  // Message buffers kept between calls (grown, never shrunk): no fresh pages per call.
  static std::vector<std::byte> send_buffer, recv_buffer;
  const auto room = [&](std::vector<std::byte>& v, int count) {
    const std::size_t bytes = e.size * (static_cast<std::size_t>(count) + 1);
    if (v.size() < bytes) v.resize(bytes);
    return v.data();
  };
  std::byte* const send = room(send_buffer, send_displ.back());
  std::byte* const recv = room(recv_buffer, recv_displ.back());
  std::vector<int> next(send_displ.begin(), send_displ.end() - 1);
  for (std::int64_t c : send_cols) {
    const void* column = advance(src.data, local(src.cols, c) * src.ld, e);
    for (const Run& run : send_runs) {
      const void* in = advance(column, local(src.rows, run.first), e);
      const int rank = dst_rank(run.other_owner, c);
      if (rank == me) {
        combine(in, run.len, dst_at(run.first, c), r_stride);
      } else {
        std::memcpy(advance(send, next[static_cast<std::size_t>(rank)], e), in,
                    e.size * static_cast<std::size_t>(run.len));
        next[static_cast<std::size_t>(rank)] += static_cast<int>(run.len);
      }
    }
  }
  std::vector<int> send_n(size), recv_n(size);
  for (std::size_t r = 0; r < size; ++r)
    send_n[r] = static_cast<int>(send_count[r]), recv_n[r] = static_cast<int>(recv_count[r]);
  HYMPI_CHECK_MPI(MPI_Alltoallv(send, send_n.data(), send_displ.data(), e.mpi(), recv, recv_n.data(), recv_displ.data(),
                                e.mpi(), g.comm));
  next.assign(recv_displ.begin(), recv_displ.end() - 1);
  for (std::int64_t c : recv_cols)
    for (const Run& run : recv_runs) {
      const int rank = run.other_owner * g.cols + owner(src.cols, c);
      if (rank == me) continue;  // copied above
      combine(advance(recv, next[static_cast<std::size_t>(rank)], e), run.len, dst_at(run.first, c), r_stride);
      next[static_cast<std::size_t>(rank)] += static_cast<int>(run.len);
    }
}

}  // namespace hympi::hsumma::scalapack
