// Distribution arithmetic for SUMMA/HSUMMA: which rank owns which rows or
// columns, and the sequence of panels (steps) the algorithm walks through.
// Pure logic, no MPI; unit-tested in tests/summa.
//
// The engine uses the block-checkerboard distribution of Hasanov's thesis with
// ScaLAPACK's remainder rule: a dimension of n items over p processes is cut into
// blocks of ceil(n/p), process i owns [i*ceil(n/p), min(n, (i+1)*ceil(n/p))), so the
// last processes may own fewer (or zero) items. That is exactly a ScaLAPACK
// block-cyclic descriptor with block size ceil(n/p), which lets PDGEMM run on the
// very same local arrays. The general block-cyclic form serves PDGEMM with a
// typical nb (64, ...) and the correctness checks.
#pragma once
#include <cstdint>
#include <vector>

namespace hympi::hsumma {

// n items dealt in blocks of nb to nprocs processes cyclically (ScaLAPACK's numroc).
struct BlockCyclic1D {
  std::int64_t n = 0;
  std::int64_t nb = 1;
  int nprocs = 1;

  // The block-checkerboard (non-cyclic) case: nb = ceil(n / nprocs).
  static BlockCyclic1D block(std::int64_t n, int nprocs);

  std::int64_t local_size(int proc) const;
  std::int64_t global_index(int proc, std::int64_t local) const;
  int owner(std::int64_t global) const;
  std::int64_t local_index(std::int64_t global) const;
  // Block (non-cyclic) case only: first global index owned by `proc` (n if none).
  std::int64_t first(int proc) const;
  bool is_block() const { return nb * nprocs >= n; }
};

// Local extent of one distributed matrix on this rank (column-major, leading
// dimension ld()): what the engine, PDGEMM and the checks hold.
struct LocalBlock {
  BlockCyclic1D rows, cols;
  int row_proc = 0, col_proc = 0;
  std::int64_t local_rows() const { return rows.local_size(row_proc); }
  std::int64_t local_cols() const { return cols.local_size(col_proc); }
  std::int64_t ld() const { return local_rows() > 0 ? local_rows() : 1; }
  std::int64_t elements() const { return local_rows() * local_cols(); }
};

// The engine's layout of C = A * B (A: m x k, B: k x n, C: m x n), every
// dimension block-distributed (BlockCyclic1D::block) with rows over P and
// columns over Q, as seen from grid position (row, col). The one place the
// engine's local blocks are computed: the engine, and the drop-in pdgemm
// deciding whether a caller's arrays already lie so, read them here.
struct CheckerboardBlocks {
  LocalBlock a, b, c;
};
CheckerboardBlocks checkerboard_blocks(std::int64_t m, std::int64_t n, std::int64_t k, int P, int Q, int row, int col);

// One panel step of width k1 - k0 along the inner (k) dimension: columns
// [k0, k1) of A live on grid column a_col, rows [k0, k1) of B on grid row b_row.
struct PanelStep {
  std::int64_t k0 = 0, k1 = 0;
  int a_col = 0, b_row = 0;
  std::int64_t width() const { return k1 - k0; }
};

// An outer (between groups) step of width <= M and the inner steps of width <= b
// it is cut into.
struct OuterStep {
  PanelStep panel;
  std::vector<PanelStep> inner;
};

// The HSUMMA schedule for k over a P x Q grid: A's k columns are block-distributed
// over Q, B's k rows over P. Outer steps break at multiples of M and at every
// ownership boundary; inner steps break additionally at multiples of b. Requires
// k, M, b >= 1 and M % b == 0; then the inner steps do not depend on M (which is
// why every group count gives bit-identical results).
std::vector<OuterStep> hsumma_schedule(std::int64_t k, int P, int Q, std::int64_t M, std::int64_t b);

}  // namespace hympi::hsumma
