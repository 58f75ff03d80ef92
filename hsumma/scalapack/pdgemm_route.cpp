#include "pdgemm_route.hpp"

#include <cctype>
#include <utility>

#include "block_cyclic_summa.hpp"
#include "hympi/blacs.h"
#include "hympi/error.hpp"
#include "hympi/hsumma/distribution.hpp"
#include "staged_operand.hpp"

namespace hympi::hsumma::scalapack {

namespace {

char op_of(char t, const summa::Element& e) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(t)));
  return u == 'C' && !e.complex ? 'T' : u;  // conjugate transpose is transpose for real data
}

// The engine's block checkerboard of an r x c matrix.
Axis block_axis(std::int64_t len, int nprocs) {
  const std::int64_t nb = len > 0 ? (len + nprocs - 1) / nprocs : 1;
  return Axis::of({len, nb, nb, 0, nprocs}, 0, len);
}

// The caller's layout is already the engine's: pass the pointer through.
bool same_layout(const CallerMatrix& x, const Axis& rows, const Axis& cols, const LocalBlock& block) {
  return x.rows == rows && x.cols == cols && x.desc.lld == block.ld();
}

// Narrow k chunks (the caller's k blocks, e.g. nb = 64) make many small
// broadcasts and rank-nb updates: staging one more operand onto k blocks of the
// panel width costs one redistribution of it and pays when it at least halves
// the number of chunks (n = 4096, nb = 64 on 1x2: 1.62 s -> 1.39 s per call).
// Staging only adds alignment: every choice here can run.
void widen(const CallerMatrix& A, const CallerMatrix& B, bool& stage_a, bool& stage_b, const Settings& s, int nprow,
           int npcol, std::int64_t k) {
  const std::int64_t cap = staged_k_block(s);
  const Axis a_cols = k_axis(k, cap, npcol), b_rows = k_axis(k, cap, nprow);
  const auto chunks = [&](bool sa, bool sb) {
    return k_chunks(sa ? a_cols : A.cols, sb ? b_rows : B.rows, cap).size();
  };
  const std::size_t now = chunks(stage_a, stage_b);
  std::size_t best = now;
  bool best_a = stage_a, best_b = stage_b;
  for (const auto& [sa, sb] : {std::pair{true, stage_b}, std::pair{stage_a, true}, std::pair{true, true}}) {
    const std::size_t c = chunks(sa, sb);
    if (2 * c <= now && c < best) best = c, best_a = sa, best_b = sb;
  }
  stage_a = best_a, stage_b = best_b;
}

// Which operands the block-cyclic route stages: those unlike C, then more where
// that widens narrow k chunks (widen). Replicated data only.
void choose_staging(const CallShape& sh, const Settings& s, Decision& d) {
  d.stage_a = !(sh.ta == 'N' && align(d.A->rows, d.C->rows, sh.nprow));
  d.stage_b = !(sh.tb == 'N' && align(d.B->cols, d.C->cols, sh.npcol));
  widen(*d.A, *d.B, d.stage_a, d.stage_b, s, sh.nprow, sh.npcol, sh.k);
}

}  // namespace

Op copy_op(char t) {
  return t == 'N' ? Op::none : t == 'C' ? Op::conj_transpose : Op::transpose;
}

std::int64_t staged_k_block(const Settings& s) {
  return s.auto_block() ? 512 : s.block;
}

StagedAxes::StagedAxes(const CallerMatrix& C, bool stage_a, bool stage_b, const Settings& s, int nprow, int npcol,
                       std::int64_t k) {
  if (stage_a) a_rows = compact(C.rows, nprow), a_cols = k_axis(k, staged_k_block(s), npcol);
  if (stage_b) b_rows = k_axis(k, staged_k_block(s), nprow), b_cols = compact(C.cols, npcol);
}

CheckerboardAxes::CheckerboardAxes(const CallShape& sh)
    : a_rows(block_axis(sh.m, sh.nprow)),
      a_cols(block_axis(sh.k, sh.npcol)),
      b_rows(block_axis(sh.k, sh.nprow)),
      b_cols(block_axis(sh.n, sh.npcol)) {}

std::optional<CallShape> read_shape(const PdgemmCall& call) {
  const char ta = op_of(call.transa, call.elem), tb = op_of(call.transb, call.elem);
  const auto known = [](char t) { return t == 'N' || t == 'T' || t == 'C'; };
  if (!known(ta) || !known(tb)) return std::nullopt;
  if (call.m < 0 || call.n < 0 || call.k < 0) return std::nullopt;
  const auto da = read_descriptor(call.desca), db = read_descriptor(call.descb), dc = read_descriptor(call.descc);
  if (!da || !db || !dc || da->ctxt != db->ctxt || da->ctxt != dc->ctxt) return std::nullopt;
  CallShape shape{ta, tb, call.m, call.n, call.k, *da, *db, *dc, -1, -1, -1, -1};
  Cblacs_gridinfo(da->ctxt, &shape.nprow, &shape.npcol, &shape.myrow, &shape.mycol);
  if (shape.nprow < 1 || shape.npcol < 1 || shape.myrow < 0 || shape.mycol < 0) return std::nullopt;
  return shape;
}

Decision decide(const PdgemmCall& call, const CallShape& sh, const Settings& s, const GridPos& pos) {
  const SubmatrixRef refs[3] = {{sh.da, call.ia, call.ja, sh.a_rows(), sh.a_cols()},
                                {sh.db, call.ib, call.jb, sh.b_rows(), sh.b_cols()},
                                {sh.dc, call.ic, call.jc, sh.m, sh.n}};
  // One vote per rank, agreed by minimum: the local leading dimensions make
  // the checks and the in-place layouts rank-local.
  struct Votes {
    int ok = 1, a_in_place = 0, b_in_place = 0, c_in_place = 0;
  } votes;
  for (const SubmatrixRef& ref : refs)
    if (check_submatrix(ref, sh.nprow, sh.npcol, sh.myrow)) votes.ok = 0;
  const summa::Element& e = call.elem;
  const bool multiply = votes.ok && sh.m > 0 && sh.n > 0 && sh.k > 0 && !e.is_zero(call.alpha);
  // The checkerboard engine multiplies doubles: other types always take the
  // block-cyclic route, engine=redistribute staging both operands there.
  const bool checkerboard_ok = e.code == 'd';
  Decision d;
  bool aligned = false;
  if (votes.ok) d.C.emplace(sh.dc, sh.nprow, sh.npcol, call.ic, call.jc, sh.m, sh.n);
  if (multiply) {
    d.A.emplace(sh.da, sh.nprow, sh.npcol, call.ia, call.ja, sh.a_rows(), sh.a_cols());
    d.B.emplace(sh.db, sh.nprow, sh.npcol, call.ib, call.jb, sh.b_rows(), sh.b_cols());
    const CheckerboardAxes ax(sh);
    // The engine's local blocks, known before building it (no collective yet).
    const LocalBlock a_blk{BlockCyclic1D::block(sh.m, sh.nprow), BlockCyclic1D::block(sh.k, sh.npcol), sh.myrow,
                           sh.mycol};
    const LocalBlock b_blk{BlockCyclic1D::block(sh.k, sh.nprow), BlockCyclic1D::block(sh.n, sh.npcol), sh.myrow,
                           sh.mycol};
    const LocalBlock c_blk{BlockCyclic1D::block(sh.m, sh.nprow), BlockCyclic1D::block(sh.n, sh.npcol), sh.myrow,
                           sh.mycol};
    votes.a_in_place = sh.ta == 'N' && same_layout(*d.A, ax.a_rows, ax.a_cols, a_blk);
    votes.b_in_place = sh.tb == 'N' && same_layout(*d.B, ax.b_rows, ax.b_cols, b_blk);
    votes.c_in_place = e.is_one(call.alpha) && e.is_zero(call.beta) && same_layout(*d.C, ax.a_rows, ax.b_cols, c_blk);
    if (!checkerboard_ok || s.engine != EngineChoice::redistribute) {
      choose_staging(sh, s, d);
      if (s.engine == EngineChoice::redistribute) d.stage_a = d.stage_b = true;
      const StagedAxes st(*d.C, d.stage_a, d.stage_b, s, sh.nprow, sh.npcol, sh.k);
      aligned = align(d.stage_a ? st.a_rows : d.A->rows, d.C->rows, sh.nprow) &&
                align(d.stage_b ? st.b_cols : d.B->cols, d.C->cols, sh.npcol);
    }
  }
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &votes, 4, MPI_INT, MPI_MIN, pos.comm));
  if (!votes.ok) return d;
  d.a_in_place = votes.a_in_place, d.b_in_place = votes.b_in_place, d.c_in_place = votes.c_in_place;
  const bool all_in_place = d.a_in_place && d.b_in_place && d.c_in_place;
  if (!multiply)
    d.route = Route::scale_only;
  else if (aligned && (!checkerboard_ok || s.engine == EngineChoice::direct || !all_in_place))
    d.route = Route::block_cyclic;
  else
    d.route = Route::checkerboard;
  return d;
}

}  // namespace hympi::hsumma::scalapack
