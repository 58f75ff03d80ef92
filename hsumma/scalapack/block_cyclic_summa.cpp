#include "block_cyclic_summa.hpp"

#include <algorithm>
#include <utility>

#include "hympi/error.hpp"
#include "hympi/summa/group_lines.hpp"
#include "hympi/summa/panel_pipeline.hpp"

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

std::optional<ChunkPlan> plan_chunks(const Axis& a_rows, const Axis& a_cols, const Axis& b_rows, const Axis& b_cols,
                                     const Axis& c_rows, const Axis& c_cols, int nprow, int npcol, std::int64_t cap) {
  if (a_cols.size() != b_rows.size()) return std::nullopt;
  auto rows = align(a_rows, c_rows, nprow);
  if (!rows) return std::nullopt;
  auto cols = align(b_cols, c_cols, npcol);
  if (!cols) return std::nullopt;
  return chunk_plan(std::move(*rows), std::move(*cols), a_cols, b_rows, cap);
}

ChunkPlan chunk_plan(AlignedDim rows, AlignedDim cols, const Axis& a_cols, const Axis& b_rows, std::int64_t cap) {
  ChunkPlan plan{std::move(rows), std::move(cols), k_chunks(a_cols, b_rows, std::max<std::int64_t>(1, cap)), 0};
  for (const KChunk& ch : plan.chunks) plan.width = std::max(plan.width, ch.width);
  return plan;
}

namespace {

// The panel source of the caller's block-cyclic arrays: one outer step per k
// chunk, one inner step in it. Outer step u's A panel is my process row's rows
// of A from the process column holding chunk u, its B panel my process
// column's columns of B from the process row holding it. A process row without
// rows (column without columns) joins no broadcast of that operand: its whole
// line skips it alike.
class BlockCyclicPanels : public summa::PanelSource {
 public:
  BlockCyclicPanels(const ChunkPlan& plan, const PanelLines& lines, const GridPos& pos, const summa::Element& e,
                    LocalArray a, LocalArray b)
      : e_(e),
        plan_(plan),
        lines_{lines.along_row(), lines.along_col()},
        mine_{pos.my_col, pos.my_row},
        across_{plan.rows.count[static_cast<std::size_t>(pos.my_row)],
                plan.cols.count[static_cast<std::size_t>(pos.my_col)]},
        // The first of my rows of A, of my columns of B.
        first_{a.data ? summa::advance(a.data, plan.rows.x_first[static_cast<std::size_t>(pos.my_row)], e) : nullptr,
               b.data ? summa::advance(b.data, plan.cols.x_first[static_cast<std::size_t>(pos.my_col)] * b.ld, e)
                      : nullptr},
        ld_{a.ld, b.ld} {}

  std::size_t outer_steps() const override { return plan_.chunks.size(); }
  std::size_t inner_steps(std::size_t) const override { return 1; }
  std::int64_t width(std::size_t outer, std::size_t) const override { return plan_.chunks[outer].width; }

  summa::PanelFlight post_outer(summa::Operand op, std::size_t outer) override {
    if (across_[op] == 0) return {};
    const KChunk& ch = plan_.chunks[outer];
    const int own = owner(op, ch);
    const bool is_owner = mine_[op] == own;
    const std::int64_t k_offset = op == summa::kA ? ch.a_local * ld_[op] : ch.b_local;
    return summa::post_outer_stage(lines_[op], own, is_owner,
                                   is_owner ? summa::advance(first_[op], k_offset, e_) : nullptr, ld_[op], rows(op, ch),
                                   cols(op, ch));
  }

  summa::PanelFlight post_inner(summa::Operand op, std::size_t outer, std::size_t, summa::Panel panel) override {
    if (across_[op] == 0) return {};
    const KChunk& ch = plan_.chunks[outer];
    return summa::post_inner_stage(lines_[op], owner(op, ch), panel, rows(op, ch), cols(op, ch));
  }

 private:
  static int owner(summa::Operand op, const KChunk& ch) { return op == summa::kA ? ch.a_col : ch.b_row; }
  std::int64_t rows(summa::Operand op, const KChunk& ch) const { return op == summa::kA ? across_[op] : ch.width; }
  std::int64_t cols(summa::Operand op, const KChunk& ch) const { return op == summa::kA ? ch.width : across_[op]; }

  const summa::Element& e_;
  const ChunkPlan& plan_;
  const summa::GroupLines lines_[2];
  const int mine_[2];             // my process column (A) / row (B)
  const std::int64_t across_[2];  // my rows of A / columns of B
  const void* const first_[2];
  const std::int64_t ld_[2];
};

}  // namespace

void block_cyclic_summa(const ChunkPlan& plan, PanelLines& lines, const GridPos& pos, const summa::Element& e,
                        const void* alpha, LocalArray a, LocalArray b, void* c, std::int64_t ldc,
                        const std::function<void(summa::Phase)>& mark) {
  BlockCyclicPanels panels(plan, lines, pos, e, a, b);
  const auto row = static_cast<std::size_t>(pos.my_row), col = static_cast<std::size_t>(pos.my_col);
  const summa::LocalC local{summa::advance(c, plan.rows.c_first[row] + plan.cols.c_first[col] * ldc, e), ldc,
                            plan.rows.count[row], plan.cols.count[col]};
  summa::run_steps(panels, lines.overlap() ? 1 : 0, e, alpha, local, mark);
}

}  // namespace hympi::hsumma::scalapack
