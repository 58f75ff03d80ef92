// What a p?gemm call asks for, read from its arguments: the ops, sizes,
// descriptors and grid position every rank of the grid shares (CallShape), and
// where a submatrix argument lies (CallerMatrix). The drop-in plans from these
// (pdgemm_route.hpp).
#pragma once
#include <cstdint>
#include <optional>

#include "descriptor.hpp"
#include "pdgemm_call.hpp"
#include "redistribute.hpp"

namespace hympi::hsumma::scalapack {

// A submatrix of the caller's: its descriptor and maps of its rows and columns.
struct CallerMatrix {
  Descriptor desc;
  Axis rows, cols;
  CallerMatrix(const Descriptor& d, int nprow, int npcol, std::int64_t i, std::int64_t j, std::int64_t r,
               std::int64_t c)
      : desc(d),
        rows(Axis::of({d.m, d.imb, d.mb, d.rsrc, nprow}, i - 1, r)),
        cols(Axis::of({d.n, d.inb, d.nb, d.csrc, npcol}, j - 1, c)) {}
};

// The call's arguments every grid rank shares: a rank decides on them alone.
struct CallShape {
  char ta, tb;    // op(A), op(B): 'N', 'T' or (complex only) 'C'
  Op a_op, b_op;  // how A and B are read when copied (redistribute.hpp)
  std::int64_t m, n, k;
  Descriptor da, db, dc;
  int nprow, npcol, myrow, mycol;
  std::int64_t a_rows() const { return ta == 'N' ? m : k; }
  std::int64_t a_cols() const { return ta == 'N' ? k : m; }
  std::int64_t b_rows() const { return tb == 'N' ? k : n; }
  std::int64_t b_cols() const { return tb == 'N' ? n : k; }
};

// The shape of a call, or nothing when its replicated arguments are invalid.
std::optional<CallShape> read_shape(const PdgemmCall& call);

}  // namespace hympi::hsumma::scalapack
