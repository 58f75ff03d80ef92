#include "block_cyclic_summa.hpp"

#include <functional>

#include "hympi/error.hpp"
#include "hympi/summa/group_lines.hpp"
#include "hympi/summa/panel_pipeline.hpp"

namespace hympi::hsumma::scalapack {

namespace {

// The panel source of the caller's block-cyclic arrays: one outer step per k
// chunk, one inner step in it. Outer step u's A panel is my process row's rows
// of A from the process column holding chunk u, its B panel my process
// column's columns of B from the process row holding it. A process row without
// rows (column without columns) joins no broadcast of that operand: its whole
// line skips it alike.
class BlockCyclicPanels : public summa::PanelSource {
 public:
  BlockCyclicPanels(const ChunkPlan& plan, const PanelLineSet& lines, const GridPos& pos, const summa::Element& e,
                    LocalArray a, LocalArray b)
      : e_(e),
        plan_(plan),
        lines_{lines.along_row, lines.along_col},
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

void block_cyclic_summa(const ChunkPlan& plan, const PanelLineSet& lines, const GridPos& pos, const summa::Element& e,
                        const void* alpha, LocalArray a, LocalArray b, void* c, std::int64_t ldc, StepLaps* laps) {
  BlockCyclicPanels panels(plan, lines, pos, e, a, b);
  const auto row = static_cast<std::size_t>(pos.my_row), col = static_cast<std::size_t>(pos.my_col);
  const summa::LocalC local{summa::advance(c, plan.rows.c_first[row] + plan.cols.c_first[col] * ldc, e), ldc,
                            plan.rows.count[row], plan.cols.count[col]};
  std::function<void(summa::Phase)> mark;
  if (laps)
    mark = [laps](summa::Phase phase) { laps->laps.lap(phase == summa::Phase::updated ? laps->gemm : laps->panels); };
  summa::run_steps(panels, lines.overlap ? 1 : 0, e, alpha, local, mark);
}

}  // namespace hympi::hsumma::scalapack
