// Moves a distributed matrix between two distributions on the same P x Q grid
// (one MPI_Alltoallv): the caller's block-cyclic submatrix into the engine's
// block checkerboard (optionally transposed), and the engine's C back into the
// caller's, combined as alpha * x + beta * y.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "descriptor.hpp"

namespace hympi::hsumma::scalapack {

// One side of a redistribution: the maps of its rows and columns (Axis: which
// grid row / column owns each, and the local index there) and this rank's storage
// (column-major, leading dimension ld).
struct DistMatrix {
  const Axis& rows;
  const Axis& cols;
  double* data;
  std::int64_t ld;
};
struct SourceMatrix {  // the same, read only
  const Axis& rows;
  const Axis& cols;
  const double* data;
  std::int64_t ld;
};

// A position in the grid; rank of (r, c) in `comm` is r * cols + c.
struct GridPos {
  MPI_Comm comm;
  int rows, cols, my_row, my_col;
};

// dst = alpha * op(src) + beta * dst, element by element; op(src) = src^T when
// `transpose`. beta == 0 never reads dst (NaN there vanishes). src is only read.
// Collective over grid.comm.
void redistribute(const GridPos& grid, const SourceMatrix& src, bool transpose, const DistMatrix& dst, double alpha,
                  double beta);

}  // namespace hympi::hsumma::scalapack
