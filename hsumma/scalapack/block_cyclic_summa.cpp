#include "block_cyclic_summa.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>

#include "hympi/error.hpp"

namespace hympi::hsumma::scalapack {

std::int64_t AlignedDim::max_count() const {
  return count.empty() ? 0 : *std::max_element(count.begin(), count.end());
}

std::optional<AlignedDim> align(const Axis& x, const Axis& c, int nprocs) {
  if (x.size() != c.size()) return std::nullopt;
  const auto procs = static_cast<std::size_t>(nprocs);
  AlignedDim d{std::vector<std::int64_t>(procs, 0), std::vector<std::int64_t>(procs, 0),
               std::vector<std::int64_t>(procs, 0)};
  for (std::size_t t = 0; t < static_cast<std::size_t>(c.size()); ++t) {
    const auto p = static_cast<std::size_t>(c.owner[t]);
    if (x.owner[t] != c.owner[t]) return std::nullopt;
    std::int64_t& seen = d.count[p];
    if (seen == 0)
      d.c_first[p] = c.local[t], d.x_first[p] = x.local[t];
    else if (c.local[t] != d.c_first[p] + seen || x.local[t] != d.x_first[p] + seen)
      return std::nullopt;  // one local block in C and in x, shifted by a constant: else not aligned
    ++seen;
  }
  return d;
}

std::vector<KChunk> k_chunks(const Axis& a_cols, const Axis& b_rows, std::int64_t cap) {
  std::vector<KChunk> chunks;
  const std::int64_t k = a_cols.size();
  for (std::int64_t t = 0; t < k;) {
    const auto at = [](const auto& v, std::int64_t i) { return v[static_cast<std::size_t>(i)]; };
    KChunk ch{1, at(a_cols.owner, t), at(b_rows.owner, t), at(a_cols.local, t), at(b_rows.local, t)};
    for (std::int64_t u = t + 1; u < k && ch.width < cap; ++u, ++ch.width)
      if (at(a_cols.owner, u) != ch.a_col || at(b_rows.owner, u) != ch.b_row ||
          at(a_cols.local, u) != ch.a_local + ch.width || at(b_rows.local, u) != ch.b_local + ch.width)
        break;
    chunks.push_back(ch);
    t += ch.width;
  }
  return chunks;
}

std::optional<DirectPlan> plan_direct(const Axis& a_rows, const Axis& a_cols, const Axis& b_rows, const Axis& b_cols,
                                      const Axis& c_rows, const Axis& c_cols, int nprow, int npcol, std::int64_t cap) {
  if (a_cols.size() != b_rows.size()) return std::nullopt;
  auto rows = align(a_rows, c_rows, nprow);
  if (!rows) return std::nullopt;
  auto cols = align(b_cols, c_cols, npcol);
  if (!cols) return std::nullopt;
  DirectPlan plan{std::move(*rows), std::move(*cols), k_chunks(a_cols, b_rows, std::max<std::int64_t>(1, cap)), 0};
  for (const KChunk& ch : plan.chunks) plan.width = std::max(plan.width, ch.width);
  return plan;
}

namespace {

// A panel on its way. `bc` is non-null while a broadcast is in flight; with
// groups, `inner` is the stage still to run when it lands (from `inner_root`,
// this rank its root when `inner_is_root`).
struct Flight {
  Bcast* bc = nullptr;
  LocalArray panel{nullptr, 1};
  Bcast* inner = nullptr;
  int inner_root = 0;
  bool inner_is_root = false;
  std::int64_t count = 0;
};

// Sends the panel rows x cols (column-major, leading dimension ld at the root's
// `src`) to every rank of the line of `bc`: started only when `overlap`, else
// complete. A line of one rank (no bc) reads it in place. A contiguous panel is
// sent from `src` itself (read only), else packed into the broadcast buffer.
Flight send_one(Bcast* bc, int root, bool is_root, const double* src, std::int64_t ld, std::int64_t rows,
                std::int64_t cols, bool overlap) {
  if (!bc) return {nullptr, {src, ld}};
  const double* direct = nullptr;
  if (is_root && (ld == rows || cols == 1)) {
    direct = src;
  } else if (is_root) {
    double* dst = bc->buffer_as<double>();
    for (std::int64_t j = 0; j < cols; ++j) std::memcpy(dst + j * rows, src + j * ld, sizeof(double) * rows);
  }
  if (overlap) {
    bc->start(root, rows * cols, direct);
    return {bc, {nullptr, rows}};
  }
  bc->run(root, rows * cols, direct);
  return {nullptr, {bc->result_as<double>(), rows}};
}

// The panel of grid column (row) `root` along one direction. Without groups
// across it one broadcast, overlapped when asked. With groups the ranks at the
// root's place in their groups get it first (outer, overlapped when asked),
// then every group from them (inner, when it lands).
Flight send(const PanelLines::Stages& st, int root, bool is_root, const double* src, std::int64_t ld, std::int64_t rows,
            std::int64_t cols, bool overlap) {
  const int place = root % st.width, group = root / st.width;
  if (!st.outer) return send_one(st.inner, place, is_root, src, ld, rows, cols, overlap);
  const bool at_place = st.my_place == place;
  Flight f = at_place ? send_one(st.outer, group, is_root, src, ld, rows, cols, overlap) : Flight{};
  f.inner = st.inner, f.inner_root = place, f.inner_is_root = at_place, f.count = rows * cols;
  if (!at_place) f.panel = {nullptr, rows};
  return f;
}

LocalArray land(Flight& f) {
  if (f.bc) {
    f.bc->wait();
    f.panel.data = f.bc->result_as<double>();
    f.bc = nullptr;
  }
  if (f.inner) {  // the outer stage's result (contiguous) goes on inside the group
    f.inner->run(f.inner_root, f.count, f.inner_is_root ? f.panel.data : nullptr);
    f.panel.data = f.inner->result_as<double>();
    f.inner = nullptr;
  }
  return f.panel;
}

}  // namespace

void block_cyclic_summa(const DirectPlan& plan, PanelLines& lines, const GridPos& pos, double alpha, LocalArray a,
                        LocalArray b, double* c, std::int64_t ldc) {
  const auto row = static_cast<std::size_t>(pos.my_row), col = static_cast<std::size_t>(pos.my_col);
  const std::int64_t lm = plan.rows.count[row], ln = plan.cols.count[col];
  const bool overlap = lines.overlap();
  // The A and B panels of a chunk: my process row's rows of A from the process
  // column holding them, my process column's columns of B from the process row
  // holding them. A process row without rows (column without columns) joins no
  // broadcast of that operand: its whole line skips it alike.
  auto issue = [&](const KChunk& ch, Flight(&f)[2]) {
    if (lm > 0) {
      const bool root = pos.my_col == ch.a_col;
      f[0] = send(lines.along_row(), ch.a_col, root,
                  root ? a.data + plan.rows.x_first[row] + ch.a_local * a.ld : nullptr, a.ld, lm, ch.width, overlap);
    }
    if (ln > 0) {
      const bool root = pos.my_row == ch.b_row;
      f[1] = send(lines.along_col(), ch.b_row, root,
                  root ? b.data + ch.b_local + plan.cols.x_first[col] * b.ld : nullptr, b.ld, ch.width, ln, overlap);
    }
  };
  // Lookahead: chunk u + 1's panels fly during chunk u's dgemm (a result stays
  // readable until its object's second start after it). Without it a panel's
  // buffer may be its result: the next chunk is sent after the dgemm.
  Flight next[2];
  const std::size_t chunks = plan.chunks.size();
  if (chunks > 0) issue(plan.chunks[0], next);
  for (std::size_t u = 0; u < chunks; ++u) {
    const LocalArray ap = land(next[0]), bp = land(next[1]);
    if (overlap && u + 1 < chunks) issue(plan.chunks[u + 1], next);
    if (lm > 0 && ln > 0)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(lm), static_cast<int>(ln),
                  static_cast<int>(plan.chunks[u].width), alpha, ap.data, static_cast<int>(ap.ld), bp.data,
                  static_cast<int>(bp.ld), 1.0, c + plan.rows.c_first[row] + plan.cols.c_first[col] * ldc,
                  static_cast<int>(ldc));
    if (!overlap && u + 1 < chunks) issue(plan.chunks[u + 1], next);
  }
}

}  // namespace hympi::hsumma::scalapack
