// An operand of the block-cyclic route that does not line up with C (transposed, or
// its rows / columns distributed unlike C's) is copied once into a layout that
// does: A's rows (B's columns) lie exactly like C's, stored compactly, and k is
// block-cyclic over the other grid dimension (layouts: compact, k_axis in
// descriptor.hpp, chosen by the plan). One redistribution of that operand
// only; C never moves and the caller's A and B are only read.
#pragma once
#include <cstdint>
#include <vector>

#include "descriptor.hpp"
#include "redistribute.hpp"

namespace hympi::hsumma::scalapack {

struct StagedOperand {
  Axis rows, cols;  // of op(X) as staged
  void* data;       // elements of type e, in `storage`
  std::int64_t ld = 1;
  // op(src) redistributed onto (rows, cols), kept in `storage` (grown when too
  // small, never shrunk: repeated calls reuse its pages instead of faulting in
  // fresh ones). Collective over grid.comm.
  StagedOperand(const GridPos& grid, const summa::Element& e, const SourceMatrix& src, Op op, Axis staged_rows,
                Axis staged_cols, std::vector<std::byte>& storage);
};

}  // namespace hympi::hsumma::scalapack
