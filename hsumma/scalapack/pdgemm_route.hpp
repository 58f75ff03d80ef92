// The first step of the drop-in pdgemm (pdgemm_call.hpp): which route a call
// takes, decided alike on every rank of its grid. The routes: pass the call on
// (invalid), scale C only, SUMMA on the caller's block-cyclic arrays
// (block_cyclic_summa.hpp), or the engine on its block checkerboard.
#pragma once
#include <cstdint>
#include <optional>

#include "descriptor.hpp"
#include "pdgemm_call.hpp"
#include "redistribute.hpp"
#include "settings.hpp"

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

// How an operand with this op is read when copied (redistribute.hpp).
Op copy_op(char t);

// The call's arguments every grid rank shares: a rank decides on them alone.
struct CallShape {
  char ta, tb;  // op(A), op(B): 'N', 'T' or (complex only) 'C'
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

// The k block of staged operands: the inner panel width (block=auto: the widest candidate).
std::int64_t staged_k_block(const Settings& s);

// The layouts staged operands get (staged_operand.hpp): A's rows like C's and
// k over the process columns, B's columns like C's and k over the process rows.
// Empty for an operand not staged. Replicated data only.
struct StagedAxes {
  Axis a_rows, a_cols, b_rows, b_cols;
  StagedAxes(const CallerMatrix& C, bool stage_a, bool stage_b, const Settings& s, int nprow, int npcol,
             std::int64_t k);
};

// The checkerboard engine's axes of the call (its block distribution).
struct CheckerboardAxes {
  Axis a_rows, a_cols, b_rows, b_cols;
  explicit CheckerboardAxes(const CallShape& sh);
};

// How a call runs; every rank of the grid reaches the same route.
enum class Route {
  invalid,       // pass it on: ScaLAPACK reports the error
  scale_only,    // nothing to multiply: C = beta * C
  block_cyclic,  // SUMMA on the caller's arrays (block_cyclic_summa.hpp), staging what is unaligned
  checkerboard,  // the engine on its block checkerboard, redistributing what differs
};

struct Decision {
  Route route = Route::invalid;
  std::optional<CallerMatrix> A, B, C;    // C unless invalid; A and B when multiplying
  bool stage_a = false, stage_b = false;  // block_cyclic: operands staged (staged_operand.hpp)
  // checkerboard: operands already in the engine's layout (read and written in place)
  bool a_in_place = false, b_in_place = false, c_in_place = false;
};

// Decides the route: argument checks (rank-local ones agreed over the grid) and
// the layouts of A, B and C. Collective over the grid (one allreduce).
Decision decide(const PdgemmCall& call, const CallShape& sh, const Settings& s, const GridPos& pos);

}  // namespace hympi::hsumma::scalapack
