// The broadcast lines of the block-cyclic route on one grid, kept per grid
// (GridEntry) so repeated calls build nothing. With I x J HSUMMA groups a panel
// travels in two stages, as in HSUMMA: among the groups first (outer: the
// ranks at the root's place in their groups), then inside every group (inner).
// With 1 x 1 the inner line is the whole process row / column: SUMMA.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "hympi/collectives.hpp"
#include "hympi/grid.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/summa/group_lines.hpp"
#include "redistribute.hpp"

namespace hympi::hsumma::scalapack {

// Both directions' lines for one multiply: A panels along the process rows, B
// panels along the process columns (summa/group_lines.hpp), and whether they
// were built for lookahead (start/wait).
struct PanelLineSet {
  summa::GroupLines along_row, along_col;
  bool overlap = false;
};

class PanelLines {
 public:
  explicit PanelLines(const GridPos& pos);  // collective over pos.comm
  ~PanelLines();                            // collective over pos.comm
  PanelLines(const PanelLines&) = delete;
  PanelLines& operator=(const PanelLines&) = delete;

  // Lines for I x J groups (I | P, J | Q) with room for a_count (along rows) and
  // b_count (along columns) elements of elem_size bytes under these broadcast
  // options (policy, sync, lookahead, node layout); rebuilt only when too small
  // or the groups, element size or options changed. The arguments must agree on
  // every grid rank: collective when rebuilding.
  PanelLineSet reserve(std::int64_t a_count, std::int64_t b_count, const EngineOptions& o, int I, int J,
                       std::size_t elem_size);

 private:
  GridPos pos_;
  int I_ = 1, J_ = 1;
  std::unique_ptr<TwoLevelGrid> grid_;
  std::unique_ptr<Bcast> a_outer_, a_inner_, b_outer_, b_inner_;
  std::int64_t a_capacity_ = -1, b_capacity_ = -1;
  Policy policy_ = Policy::hybrid;
  SyncKind sync_ = SyncKind::flags;
  bool overlap_ = false;
  std::size_t elem_size_ = sizeof(double);
};

}  // namespace hympi::hsumma::scalapack
