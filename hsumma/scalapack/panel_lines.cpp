#include "panel_lines.hpp"

#include <algorithm>

#include "hympi/hsumma/engine.hpp"

namespace hympi::hsumma::scalapack {

namespace {

std::unique_ptr<TwoLevelGrid> make_grid(const GridPos& pos, int I, int J) {
  return std::make_unique<TwoLevelGrid>(pos.comm, TwoLevelShape{pos.rows, pos.cols, I, J, GridOrder::row_major, false});
}

}  // namespace

PanelLines::PanelLines(const GridPos& pos) : pos_(pos), grid_(make_grid(pos, 1, 1)) {}

PanelLines::~PanelLines() {
  a_outer_.reset(), a_inner_.reset(), b_outer_.reset(), b_inner_.reset();  // built on the grid's communicators
}

PanelLineSet PanelLines::reserve(std::int64_t a_count, std::int64_t b_count, const EngineOptions& o, int I, int J,
                                 std::size_t elem_size) {
  const bool regroup = I != I_ || J != J_;
  const bool same = !regroup && o.bcast.policy == policy_ && o.bcast.sync == sync_ && o.lookahead == overlap_ &&
                    elem_size == elem_size_;
  policy_ = o.bcast.policy, sync_ = o.bcast.sync, overlap_ = o.lookahead, elem_size_ = elem_size;
  if (regroup) {
    a_outer_.reset(), a_inner_.reset(), b_outer_.reset(), b_inner_.reset();
    grid_ = make_grid(pos_, I, J);
    I_ = I, J_ = J;
  }
  // Capacities only grow while the options stay: alternating shapes rebuild nothing.
  // The broadcasts are the engine's own (make_panel_bcast: lookahead leaves room for a panel in flight).
  if (!same || a_count > a_capacity_) {
    a_capacity_ = same ? std::max(a_count, a_capacity_) : a_count;
    a_outer_.reset(), a_inner_.reset();
    a_outer_ = make_panel_bcast(grid_->outer_row_comm(), a_capacity_, o, elem_size_);
    a_inner_ = make_panel_bcast(grid_->inner_row_comm(), a_capacity_, o, elem_size_);
  }
  if (!same || b_count > b_capacity_) {
    b_capacity_ = same ? std::max(b_count, b_capacity_) : b_count;
    b_outer_.reset(), b_inner_.reset();
    b_outer_ = make_panel_bcast(grid_->outer_col_comm(), b_capacity_, o, elem_size_);
    b_inner_ = make_panel_bcast(grid_->inner_col_comm(), b_capacity_, o, elem_size_);
  }
  return {{a_outer_.get(), a_inner_.get(), grid_->shape().group_cols(), grid_->col_in_group(), overlap_, elem_size_},
          {b_outer_.get(), b_inner_.get(), grid_->shape().group_rows(), grid_->row_in_group(), overlap_, elem_size_},
          overlap_};
}

}  // namespace hympi::hsumma::scalapack
