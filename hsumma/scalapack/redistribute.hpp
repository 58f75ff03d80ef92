// Moves a distributed matrix between two distributions on the same P x Q grid
// (one MPI_Alltoallv): the caller's block-cyclic submatrix into the engine's
// block checkerboard (optionally transposed), and the engine's C back into the
// caller's, combined as alpha * x + beta * y.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "descriptor.hpp"
#include "hympi/summa/element.hpp"

namespace hympi::hsumma::scalapack {

// One side of a redistribution: the maps of its rows and columns (Axis: which
// grid row / column owns each, and the local index there) and this rank's storage
// (column-major, leading dimension ld, elements of the call's type).
struct DistMatrix {
  const Axis& rows;
  const Axis& cols;
  void* data;
  std::int64_t ld;
};
struct SourceMatrix {  // the same, read only
  const Axis& rows;
  const Axis& cols;
  const void* data;
  std::int64_t ld;
};

// How the source is read: as is, transposed, or conjugate-transposed.
enum class Op { none, transpose, conj_transpose };

// A position in the grid; rank of (r, c) in `comm` is r * cols + c.
struct GridPos {
  MPI_Comm comm;
  int rows, cols, my_row, my_col;
};

// dst = alpha * op(src) + beta * dst, element by element, elements of type `e`
// (alpha, beta point at one each). beta == 0 never reads dst (NaN there
// vanishes). src is only read. Collective over grid.comm.
void redistribute(const GridPos& grid, const summa::Element& e, const SourceMatrix& src, Op op, const DistMatrix& dst,
                  const void* alpha, const void* beta);

}  // namespace hympi::hsumma::scalapack
