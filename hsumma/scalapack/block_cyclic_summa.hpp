// The block-cyclic route of the drop-in pdgemm: SUMMA run on the caller's own
// block-cyclic arrays, C never moved. It applies when op(A) = A, op(B) = B, the
// rows of sub(A) lie like the rows of sub(C) (same owner process row, local
// indices shifted by a constant per process row) and the columns of sub(B) like
// the columns of sub(C): then every process's part of C needs only its process
// row's rows of A and its process column's columns of B, which is SUMMA. The
// k dimension needs no alignment: it is walked in chunks that one process
// column holds of A and one process row holds of B, each contiguous locally.
// Checks read replicated data only (descriptors, offsets, grid shape), so every
// rank of the grid decides alike.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "descriptor.hpp"
#include "hympi/collectives.hpp"
#include "hympi/summa/panel_pipeline.hpp"
#include "panel_lines.hpp"
#include "redistribute.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

// Where the items of a submatrix dimension that is aligned with C's lie on each
// process (of a grid row for rows, a grid column for columns): how many it
// holds, and the local index of its first one in C and in the other operand.
// The items of a process are contiguous locally in both.
struct AlignedDim {
  std::vector<std::int64_t> count, c_first, x_first;
  std::int64_t max_count() const;
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

// One operand's local storage on this rank.
struct LocalArray {
  const void* data;
  std::int64_t ld;
};

// sub(C) += alpha * sub(A) * sub(B) on the caller's local arrays (elements of
// type e, alpha points at one), by the plan, with lookahead when `lines` were
// reserved with it. A and B are only read. Collective over the grid.
// `mark`, when set, is called after each phase of the step loop (timing).
void block_cyclic_summa(const ChunkPlan& plan, PanelLines& lines, const GridPos& pos, const summa::Element& e,
                        const void* alpha, LocalArray a, LocalArray b, void* c, std::int64_t ldc,
                        const std::function<void(summa::Phase)>& mark = {});

}  // namespace hympi::hsumma::scalapack
