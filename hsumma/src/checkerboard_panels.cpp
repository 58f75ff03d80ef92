#include "checkerboard_panels.hpp"

#include <algorithm>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "shared_inputs.hpp"

namespace hympi::hsumma {

using summa::kA;
using summa::kB;

CheckerboardPanels::CheckerboardPanels(MPI_Comm comm, const TwoLevelGrid& grid, const EngineOptions& options,
                                       const LocalBlock& a, const LocalBlock& b, const std::vector<OuterStep>& schedule)
    : grid_(grid), schedule_(schedule) {
  const TwoLevelShape& shape = grid.shape();
  Side& sa = side_[kA];
  Side& sb = side_[kB];
  sa.k_along_cols = true, sb.k_along_cols = false;
  sa.k_split = a.cols, sb.k_split = b.rows;
  sa.first = a.cols.first(a.col_proc), sb.first = b.rows.first(b.row_proc);
  sa.ld = a.ld(), sb.ld = b.ld();
  sa.across = a.local_rows(), sb.across = b.local_cols();
  sa.my_line = grid.my_col(), sb.my_line = grid.my_row();

  if (options.bcast.policy == Policy::hybrid && options.share_inputs) {
    const Topology& topo = Topology::of(comm, options.layout);
    auto on_my_node = [&](int row, int col) { return topo.node_of(shape.rank_of(row, col)) == topo.node_index(); };
    // A line of one rank reads in place anyway: sharing only pays with neighbours.
    sa.shared = shape.Q > 1;
    sb.shared = shape.P > 1;
    for (int c = 0; c < shape.Q; ++c) sa.shared = sa.shared && on_my_node(grid.my_row(), c);
    for (int r = 0; r < shape.P; ++r) sb.shared = sb.shared && on_my_node(r, grid.my_col());
    int mine = sa.shared || sb.shared, any = 0;
    HYMPI_CHECK_MPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, comm));
    if (any)
      shared_ = std::make_unique<SharedInputs>(topo, options.bcast.sync, sa.shared ? a.elements() : 0,
                                               sb.shared ? b.elements() : 0);
  }

  // Widest panels: M (outer) and b (inner), never more than k.
  const std::int64_t M = std::min(options.M, options.k), bw = std::min(options.b, options.k);
  if (!sa.shared) {
    sa.outer = make_panel_bcast(grid.outer_row_comm(), sa.across * M, options);
    sa.inner = make_panel_bcast(grid.inner_row_comm(), sa.across * bw, options);
  }
  if (!sb.shared) {
    sb.outer = make_panel_bcast(grid.outer_col_comm(), M * sb.across, options);
    sb.inner = make_panel_bcast(grid.inner_col_comm(), bw * sb.across, options);
  }
  sa.lines = {sa.outer.get(), sa.inner.get(), shape.group_cols(), grid.col_in_group(), options.lookahead};
  sb.lines = {sb.outer.get(), sb.inner.get(), shape.group_rows(), grid.row_in_group(), options.lookahead};
}

CheckerboardPanels::~CheckerboardPanels() = default;

void CheckerboardPanels::bind(const double* A, const double* B) {
  side_[kA].block = A, side_[kB].block = B;
  if (shared_) shared_->publish(A, B);
}

template <class F>
void CheckerboardPanels::for_each_bcast(F f) const {
  for (const Side& side : side_)
    for (const auto* bc : {&side.outer, &side.inner})
      if (*bc) f(**bc);
}

std::size_t CheckerboardPanels::panel_bytes_per_node() const {
  std::size_t bytes = 0;
  for_each_bcast([&](const Bcast& bc) { bytes += bc.bytes_per_node(); });
  return bytes;
}

double CheckerboardPanels::node_sync_seconds() const {
  double seconds = shared_ ? shared_->node_sync_seconds() : 0;
  for_each_bcast([&](const Bcast& bc) { seconds += bc.node_sync_seconds(); });
  return seconds;
}

// The owner's published block, whoever I am (inputs shared on my line's node).
summa::Panel CheckerboardPanels::published(summa::Operand op, const PanelStep& step) const {
  const Side& side = side_[op];
  const int own = owner(op, step);
  const TwoLevelShape& shape = grid_.shape();
  const int rank = op == kA ? shape.rank_of(grid_.my_row(), own) : shape.rank_of(own, grid_.my_col());
  const double* block = op == kA ? shared_->a(rank) : shared_->b(rank);
  const std::int64_t ld = side.k_along_cols ? side.ld : std::max<std::int64_t>(1, side.k_split.local_size(own));
  return {block + side.k_offset(step.k0 - side.k_split.first(own), ld), ld};  // the engine's elements are doubles
}

// The outer panel of A (B): k indices [k0, k1) on my grid row (column).
summa::PanelFlight CheckerboardPanels::post_outer(summa::Operand op, std::size_t outer) {
  const PanelStep& step = schedule_[outer].panel;
  const Side& side = side_[op];
  if (side.shared) return {nullptr, published(op, step)};
  const int own = owner(op, step);
  const bool mine = side.my_line == own;
  const double* src = mine && side.block ? side.block + side.k_offset(step.k0 - side.first, side.ld) : nullptr;
  return summa::post_outer_stage(side.lines, own, mine, src, side.ld, side.rows(step.width()), side.cols(step.width()));
}

// The inner panel of A (B): k indices [k0, k1) of the outer panel, sent inside the group.
summa::PanelFlight CheckerboardPanels::post_inner(summa::Operand op, std::size_t outer, std::size_t inner,
                                                  summa::Panel outer_panel) {
  const PanelStep& panel = schedule_[outer].panel;
  const PanelStep& step = schedule_[outer].inner[inner];
  const Side& side = side_[op];
  const std::int64_t offset = side.k_offset(step.k0 - panel.k0, outer_panel.ld);
  const auto* data = static_cast<const double*>(outer_panel.data);
  const summa::Panel sub{data ? data + offset : nullptr, outer_panel.ld};
  if (side.shared) return {nullptr, sub};
  return summa::post_inner_stage(side.lines, owner(op, panel), sub, side.rows(step.width()), side.cols(step.width()));
}

}  // namespace hympi::hsumma
