#include "pdgemm_route.hpp"

#include <utility>

#include "hympi/error.hpp"

namespace hympi::hsumma::scalapack {

namespace {

// One dimension of the engine's block checkerboard as an Axis.
Axis block_axis(const BlockCyclic1D& d) {
  return Axis::of({d.n, d.nb, d.nb, 0, d.nprocs}, 0, d.n);
}

// The engine's layout of the call (checkerboard_blocks), as axes too.
CheckerboardPlan checkerboard_layout(const CallShape& sh) {
  CheckerboardPlan p;
  p.blocks = checkerboard_blocks(sh.m, sh.n, sh.k, sh.nprow, sh.npcol, sh.myrow, sh.mycol);
  p.a_rows = block_axis(p.blocks.a.rows), p.a_cols = block_axis(p.blocks.a.cols);
  p.b_rows = block_axis(p.blocks.b.rows), p.b_cols = block_axis(p.blocks.b.cols);
  return p;
}

// Where the block-cyclic route can stage the operands: rows and columns like
// C's, k in blocks of the widest panel it may use.
StagedLayouts staged_layouts(const CallShape& sh, const CallerMatrix& C, std::int64_t cap) {
  return {compact(C.rows, sh.nprow), k_axis(sh.k, cap, sh.npcol), k_axis(sh.k, cap, sh.nprow),
          compact(C.cols, sh.npcol)};
}

// The caller's layout is already the engine's: pass the pointer through.
bool same_layout(const CallerMatrix& x, const Axis& rows, const Axis& cols, const LocalBlock& block) {
  return x.rows == rows && x.cols == cols && x.desc.lld == block.ld();
}

}  // namespace

Plan decide(const PdgemmCall& call, const CallShape& sh, const Settings& s, GridEntry& grid) {
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
  const bool direct_considered = !checkerboard_ok || s.engine != EngineChoice::redistribute;
  Plan plan;
  BlockCyclicPlan& bc = plan.direct;
  CheckerboardPlan& cb = plan.checkerboard;
  Staging staging;  // the block-cyclic route's, when considered
  if (votes.ok) plan.C.emplace(sh.dc, sh.nprow, sh.npcol, call.ic, call.jc, sh.m, sh.n);
  if (multiply) {
    // Where everything lies: the caller's A and B, the engine's layout, the staged layouts.
    const CallerMatrix& A = plan.A.emplace(sh.da, sh.nprow, sh.npcol, call.ia, call.ja, sh.a_rows(), sh.a_cols());
    const CallerMatrix& B = plan.B.emplace(sh.db, sh.nprow, sh.npcol, call.ib, call.jb, sh.b_rows(), sh.b_cols());
    cb = checkerboard_layout(sh);
    if (direct_considered) bc.staged = staged_layouts(sh, *plan.C, widest_block(s));
    votes.a_in_place = sh.ta == 'N' && same_layout(A, cb.a_rows, cb.a_cols, cb.blocks.a);
    votes.b_in_place = sh.tb == 'N' && same_layout(B, cb.b_rows, cb.b_cols, cb.blocks.b);
    votes.c_in_place =
        e.is_one(call.alpha) && e.is_zero(call.beta) && same_layout(*plan.C, cb.a_rows, cb.b_cols, cb.blocks.c);
    if (direct_considered)
      staging = choose_staging(sh, A, B, *plan.C, bc.staged, widest_block(s), s.engine == EngineChoice::redistribute);
  }
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &votes, 4, MPI_INT, MPI_MIN, grid.pos().comm));
  if (!votes.ok) return plan;
  cb.a_in_place = votes.a_in_place, cb.b_in_place = votes.b_in_place, cb.c_in_place = votes.c_in_place;
  const bool all_in_place = cb.a_in_place && cb.b_in_place && cb.c_in_place;
  const bool direct_ok = staging.rows && staging.cols;
  if (!multiply) {
    plan.route = Route::scale_only;
    return plan;
  }
  plan.options = engine_options(s);
  if (direct_ok && (!checkerboard_ok || s.engine == EngineChoice::direct || !all_in_place)) {
    plan.route = Route::block_cyclic;
    bc.stage_a = staging.a, bc.stage_b = staging.b;
    Settings chunked = s;  // the block-cyclic route's panels are its chunks: M = b
    chunked.outer = 0;
    bc.panels = plan_panels(grid.pos(), grid.panel_choices(), {sh.m, sh.n, sh.k, chunked, &e}, plan.options);
    bc.chunks =
        chunk_plan(std::move(*staging.rows), std::move(*staging.cols), bc.stage_a ? bc.staged.a_cols : plan.A->cols,
                   bc.stage_b ? bc.staged.b_rows : plan.B->rows, bc.panels.b);
  } else {
    plan.route = Route::checkerboard;
    const ShapeKey key{sh.m, sh.n, sh.k, s};
    cb.engine = EngineKey{key, plan_panels(grid.pos(), grid.panel_choices(), key, plan.options)};
    EngineOptions& o = cb.engine_options = plan.options;
    o.m = sh.m, o.n = sh.n, o.k = sh.k, o.b = cb.engine->panels.b, o.M = cb.engine->panels.M;
  }
  return plan;
}

}  // namespace hympi::hsumma::scalapack
