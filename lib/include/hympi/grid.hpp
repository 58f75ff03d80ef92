// Process grids. Grid2D: P x Q with row and column communicators. TwoLevelGrid:
// the HSUMMA grid, P x Q split into I x J groups of (P/I) x (Q/J) ranks, with
// communicators between groups (outer) and inside a group (inner).
#pragma once
#include <mpi.h>

#include <string>
#include <string_view>
#include <utility>

#include "hympi/enums.hpp"  // GridOrder, parse_grid_order, to_string

namespace hympi {

// The grid every app takes when none is given: the most square P x Q = ranks with
// P <= Q (P the largest divisor of ranks not above its square root). The harness
// and the model (apps/harness/hympi_harness/grid.py) must agree (tests/model).
std::pair<int, int> most_square_grid(int ranks);
// "PxQ" (or "PXQ"), P, Q >= 1 -> {P, Q}; anything else throws hympi::Error naming
// `what` and the text.
std::pair<int, int> parse_grid(std::string_view text, const std::string& what = "grid");

// Owns its communicators (freed in the destructor).
class Grid2D {
 public:
  // Collective over `comm`; throws if P * Q != size of comm or P, Q < 1.
  Grid2D(MPI_Comm comm, int P, int Q, GridOrder order = GridOrder::row_major);
  ~Grid2D();
  Grid2D(const Grid2D&) = delete;
  Grid2D& operator=(const Grid2D&) = delete;

  int rows() const { return P_; }
  int cols() const { return Q_; }
  int my_row() const { return row_; }
  int my_col() const { return col_; }
  MPI_Comm comm() const { return comm_; }
  MPI_Comm row_comm() const { return row_comm_; }  // my row; rank there = column index
  MPI_Comm col_comm() const { return col_comm_; }  // my column; rank there = row index
  int rank_of(int row, int col) const;

 private:
  MPI_Comm comm_;
  int P_, Q_, row_, col_;
  GridOrder order_;
  MPI_Comm row_comm_ = MPI_COMM_NULL, col_comm_ = MPI_COMM_NULL;
};

// Grid position -> comm rank for the two-level grid. With group_major the ranks
// of one group are contiguous (a group is a node under block placement).
struct TwoLevelShape {
  int P, Q, I, J;
  GridOrder order;
  bool group_major;
  int group_rows() const { return P / I; }
  int group_cols() const { return Q / J; }
  int rank_of(int row, int col) const;
  void validate(int comm_size) const;  // throws naming the mismatch
};

class TwoLevelGrid {
 public:
  TwoLevelGrid(MPI_Comm comm, TwoLevelShape shape);
  ~TwoLevelGrid();
  TwoLevelGrid(const TwoLevelGrid&) = delete;
  TwoLevelGrid& operator=(const TwoLevelGrid&) = delete;

  const TwoLevelShape& shape() const { return shape_; }
  int my_row() const { return row_; }  // global grid position
  int my_col() const { return col_; }
  int group_row() const { return row_ / shape_.group_rows(); }
  int group_col() const { return col_ / shape_.group_cols(); }
  int row_in_group() const { return row_ % shape_.group_rows(); }
  int col_in_group() const { return col_ % shape_.group_cols(); }

  // Same global row, same column-in-group, one rank per group column (J ranks;
  // rank there = group column).
  MPI_Comm outer_row_comm() const { return outer_row_; }
  // Same global column, same row-in-group, one rank per group row (I ranks).
  MPI_Comm outer_col_comm() const { return outer_col_; }
  // Same global row inside my group (Q/J ranks; rank there = column in group).
  MPI_Comm inner_row_comm() const { return inner_row_; }
  // Same global column inside my group (P/I ranks; rank there = row in group).
  MPI_Comm inner_col_comm() const { return inner_col_; }

 private:
  TwoLevelShape shape_;
  int row_ = 0, col_ = 0;
  MPI_Comm outer_row_ = MPI_COMM_NULL, outer_col_ = MPI_COMM_NULL;
  MPI_Comm inner_row_ = MPI_COMM_NULL, inner_col_ = MPI_COMM_NULL;
};

}  // namespace hympi
