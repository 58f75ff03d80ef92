#include "hympi/hsumma/distribution.hpp"

#include <algorithm>

#include "hympi/error.hpp"

namespace hympi::hsumma {

BlockCyclic1D BlockCyclic1D::block(std::int64_t n, int nprocs) {
  require(n >= 0 && nprocs >= 1, "block distribution needs n >= 0 and at least one process");
  std::int64_t nb = std::max<std::int64_t>(1, (n + nprocs - 1) / nprocs);
  return {n, nb, nprocs};
}

CheckerboardBlocks checkerboard_blocks(std::int64_t m, std::int64_t n, std::int64_t k, int P, int Q, int row, int col) {
  const BlockCyclic1D m_rows = BlockCyclic1D::block(m, P), k_cols = BlockCyclic1D::block(k, Q);
  const BlockCyclic1D k_rows = BlockCyclic1D::block(k, P), n_cols = BlockCyclic1D::block(n, Q);
  return {{m_rows, k_cols, row, col}, {k_rows, n_cols, row, col}, {m_rows, n_cols, row, col}};
}

std::int64_t BlockCyclic1D::local_size(int proc) const {
  // numroc: whole block rounds, then the extra full blocks, then the partial one.
  std::int64_t nblocks = n / nb;
  std::int64_t size = (nblocks / nprocs) * nb;
  std::int64_t extra = nblocks % nprocs;
  if (proc < extra)
    size += nb;
  else if (proc == extra)
    size += n % nb;
  return size;
}

std::int64_t BlockCyclic1D::global_index(int proc, std::int64_t local) const {
  std::int64_t block = local / nb;
  return (block * nprocs + proc) * nb + local % nb;
}

int BlockCyclic1D::owner(std::int64_t global) const {
  return static_cast<int>((global / nb) % nprocs);
}

std::int64_t BlockCyclic1D::local_index(std::int64_t global) const {
  return (global / nb / nprocs) * nb + global % nb;
}

std::int64_t BlockCyclic1D::first(int proc) const {
  return std::min<std::int64_t>(n, proc * nb);
}

std::vector<OuterStep> hsumma_schedule(std::int64_t k, int P, int Q, std::int64_t M, std::int64_t b) {
  require(k >= 1, "the inner dimension k must be >= 1");
  require(P >= 1 && Q >= 1, "the grid must have at least one row and one column");
  require(b >= 1, "the inner block size b must be >= 1");
  require(M >= b, "the outer block size M must be >= the inner block size b");
  require(M % b == 0, "the outer block size M must be a multiple of the inner block size b");
  const BlockCyclic1D a_cols = BlockCyclic1D::block(k, Q);
  const BlockCyclic1D b_rows = BlockCyclic1D::block(k, P);
  auto next_break = [](std::int64_t pos, std::int64_t step) { return (pos / step + 1) * step; };

  std::vector<OuterStep> steps;
  std::int64_t pos = 0;
  while (pos < k) {
    OuterStep outer;
    outer.panel.k0 = pos;
    outer.panel.a_col = a_cols.owner(pos);
    outer.panel.b_row = b_rows.owner(pos);
    std::int64_t end = std::min({k, next_break(pos, M), next_break(pos, a_cols.nb), next_break(pos, b_rows.nb)});
    outer.panel.k1 = end;
    for (std::int64_t ipos = pos; ipos < end;) {
      PanelStep inner = outer.panel;
      inner.k0 = ipos;
      inner.k1 = std::min(end, next_break(ipos, b));
      outer.inner.push_back(inner);
      ipos = inner.k1;
    }
    steps.push_back(std::move(outer));
    pos = end;
  }
  return steps;
}

}  // namespace hympi::hsumma
