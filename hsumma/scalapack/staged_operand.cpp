#include "staged_operand.hpp"

#include <algorithm>
#include <utility>

namespace hympi::hsumma::scalapack {

namespace {

std::int64_t count_of(const Axis& a, int proc) {
  return a.count(proc);
}

}  // namespace

StagedOperand::StagedOperand(const GridPos& grid, const summa::Element& e, const SourceMatrix& src, Op op,
                             Axis staged_rows, Axis staged_cols, std::vector<std::byte>& storage)
    : rows(std::move(staged_rows)), cols(std::move(staged_cols)) {
  const std::int64_t my_rows = count_of(rows, grid.my_row), my_cols = count_of(cols, grid.my_col);
  ld = std::max<std::int64_t>(1, my_rows);
  const std::size_t bytes = e.size * static_cast<std::size_t>(ld * std::max<std::int64_t>(1, my_cols));
  if (storage.size() < bytes) storage.resize(bytes);
  data = storage.data();
  redistribute(grid, e, src, op, {rows, cols, data, ld}, e.one, e.zero);
}

}  // namespace hympi::hsumma::scalapack
