// The planning of the block-cyclic route (block_cyclic_summa.hpp runs it):
// it applies when op(A) = A, op(B) = B, the rows of sub(A) lie like the rows of
// sub(C) (same owner process row, local indices shifted by a constant per
// process row) and the columns of sub(B) like the columns of sub(C): then every
// process's part of C needs only its process row's rows of A and its process
// column's columns of B, which is SUMMA. The k dimension needs no alignment:
// it is walked in chunks that one process column holds of A and one process
// row holds of B, each contiguous locally. An operand that does not line up is
// staged (staged_operand.hpp). Everything here reads replicated data only
// (descriptors, offsets, grid shape), so every rank of the grid decides alike.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "call_shape.hpp"
#include "descriptor.hpp"

namespace hympi::hsumma::scalapack {

// Where the items of a submatrix dimension that is aligned with C's lie on each
// process (of a grid row for rows, a grid column for columns): how many it
// holds, and the local index of its first one in C and in the other operand.
// The items of a process are contiguous locally in both.
struct AlignedDim {
  std::vector<std::int64_t> count, c_first, x_first;
  std::int64_t max_count() const { return count.empty() ? 0 : *std::max_element(count.begin(), count.end()); }
};

// The items of `x` (A's rows or B's columns) against those of `c` (C's rows or
// columns), `nprocs` processes: nothing unless they are aligned.
std::optional<AlignedDim> align(const Axis& x, const Axis& c, int nprocs);

// A run of k indices held by one process column of A and one process row of B,
// contiguous locally in both.
struct KChunk {
  std::int64_t width;
  int a_col, b_row;               // owners
  std::int64_t a_local, b_local;  // local column of A, local row of B of the first index
};

// The chunks of k, in order, none wider than `cap`.
std::vector<KChunk> k_chunks(const Axis& a_cols, const Axis& b_rows, std::int64_t cap);

struct ChunkPlan {
  AlignedDim rows, cols;  // sub(A)/sub(C) rows over process rows, sub(B)/sub(C) columns over process columns
  std::vector<KChunk> chunks;
  std::int64_t width = 0;  // widest chunk
};

// The plan of aligned rows and columns with the chunks of k, none wider than `cap`.
ChunkPlan chunk_plan(AlignedDim rows, AlignedDim cols, const Axis& a_cols, const Axis& b_rows, std::int64_t cap);

// The plan of C += alpha * A * B for these submatrix maps, or nothing when the
// block-cyclic route cannot run them (not aligned).
std::optional<ChunkPlan> plan_chunks(const Axis& a_rows, const Axis& a_cols, const Axis& b_rows, const Axis& b_cols,
                                     const Axis& c_rows, const Axis& c_cols, int nprow, int npcol, std::int64_t cap);

// Where the route can stage the operands (staged_operand.hpp): A's rows like
// C's and k over the process columns, B's columns like C's and k over the
// process rows, k in blocks of the widest panel (compact, k_axis).
struct StagedLayouts {
  Axis a_rows, a_cols, b_rows, b_cols;
};

// Which operands the route stages, and how op(A)'s rows and op(B)'s columns as
// it then reads them align with C's (nothing where they do not: the route
// cannot run the call).
struct Staging {
  bool a = false, b = false;
  std::optional<AlignedDim> rows, cols;
};

// The operands unlike C (all of them under `stage_all`), then more where that
// widens narrow k chunks: staging one more operand pays when it at least halves
// the number of chunks no wider than `cap`.
Staging choose_staging(const CallShape& sh, const CallerMatrix& A, const CallerMatrix& B, const CallerMatrix& C,
                       const StagedLayouts& staged, std::int64_t cap, bool stage_all);

}  // namespace hympi::hsumma::scalapack
