#include "pdgemm_route.hpp"

#include <utility>

#include "hympi/error.hpp"
#include "staged_operand.hpp"

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

// The caller's layout is already the engine's: pass the pointer through.
bool same_layout(const CallerMatrix& x, const Axis& rows, const Axis& cols, const LocalBlock& block) {
  return x.rows == rows && x.cols == cols && x.desc.lld == block.ld();
}

// Narrow k chunks (the caller's k blocks, e.g. nb = 64) make many small
// broadcasts and rank-nb updates: staging one more operand onto k blocks of the
// panel width costs one redistribution of it and pays when it at least halves
// the number of chunks (n = 4096, nb = 64 on 1x2: 1.62 s -> 1.39 s per call).
// Staging only adds alignment: every choice here can run.
void widen(const Axis& a_cols, const Axis& b_rows, const Axis& staged_a_cols, const Axis& staged_b_rows,
           std::int64_t cap, bool& stage_a, bool& stage_b) {
  const auto chunks = [&](bool sa, bool sb) {
    return k_chunks(sa ? staged_a_cols : a_cols, sb ? staged_b_rows : b_rows, cap).size();
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

// Rows of op(A) and columns of op(B) as the block-cyclic route reads them, aligned with C's.
struct Alignment {
  std::optional<AlignedDim> rows, cols;
};

// The block-cyclic route's staging (replicated data only): the operands unlike
// C (all under `stage_all`), then more where that widens narrow k chunks
// (widen); their staged layouts (k in blocks of the widest panel); and how the
// operands then align with C (nothing where they do not: the route cannot run).
Alignment plan_staging(const CallShape& sh, const Settings& s, bool stage_all, const CallerMatrix& A,
                       const CallerMatrix& B, const CallerMatrix& C, BlockCyclicPlan& p) {
  const std::int64_t cap = widest_block(s);
  Axis k_cols = k_axis(sh.k, cap, sh.npcol), k_rows = k_axis(sh.k, cap, sh.nprow);
  Alignment al;
  if (sh.ta == 'N') al.rows = align(A.rows, C.rows, sh.nprow);
  if (sh.tb == 'N') al.cols = align(B.cols, C.cols, sh.npcol);
  p.stage_a = !al.rows, p.stage_b = !al.cols;
  widen(A.cols, B.rows, k_cols, k_rows, cap, p.stage_a, p.stage_b);
  if (stage_all) p.stage_a = p.stage_b = true;
  if (p.stage_a) {
    p.a_rows = compact(C.rows, sh.nprow), p.a_cols = std::move(k_cols);
    al.rows = align(p.a_rows, C.rows, sh.nprow);
  }
  if (p.stage_b) {
    p.b_rows = std::move(k_rows), p.b_cols = compact(C.cols, sh.npcol);
    al.cols = align(p.b_cols, C.cols, sh.npcol);
  }
  return al;
}

// The panels of a shape: fixed settings as given, the model's choice (auto)
// remembered by the grid (collective on first use of a shape).
PanelPlan panels_for(GridEntry& grid, const ShapeKey& key) {
  const auto choose = [&] { return plan_panels(grid.pos(), key.m, key.n, key.k, key.settings, *key.elem); };
  return key.settings.auto_groups() || key.settings.auto_block() ? grid.remembered_panels(key, choose) : choose();
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
  Plan plan;
  Alignment aligned;  // the block-cyclic route's, when it was considered
  if (votes.ok) plan.C.emplace(sh.dc, sh.nprow, sh.npcol, call.ic, call.jc, sh.m, sh.n);
  if (multiply) {
    const CallerMatrix& A = plan.A.emplace(sh.da, sh.nprow, sh.npcol, call.ia, call.ja, sh.a_rows(), sh.a_cols());
    const CallerMatrix& B = plan.B.emplace(sh.db, sh.nprow, sh.npcol, call.ib, call.jb, sh.b_rows(), sh.b_cols());
    CheckerboardPlan& cb = plan.checkerboard = checkerboard_layout(sh);
    votes.a_in_place = sh.ta == 'N' && same_layout(A, cb.a_rows, cb.a_cols, cb.blocks.a);
    votes.b_in_place = sh.tb == 'N' && same_layout(B, cb.b_rows, cb.b_cols, cb.blocks.b);
    votes.c_in_place =
        e.is_one(call.alpha) && e.is_zero(call.beta) && same_layout(*plan.C, cb.a_rows, cb.b_cols, cb.blocks.c);
    if (!checkerboard_ok || s.engine != EngineChoice::redistribute)
      aligned = plan_staging(sh, s, s.engine == EngineChoice::redistribute, A, B, *plan.C, plan.direct);
  }
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &votes, 4, MPI_INT, MPI_MIN, grid.pos().comm));
  if (!votes.ok) return plan;
  CheckerboardPlan& cb = plan.checkerboard;
  cb.a_in_place = votes.a_in_place, cb.b_in_place = votes.b_in_place, cb.c_in_place = votes.c_in_place;
  const bool all_in_place = cb.a_in_place && cb.b_in_place && cb.c_in_place;
  const bool direct_ok = aligned.rows && aligned.cols;
  if (!multiply) {
    plan.route = Route::scale_only;
  } else if (direct_ok && (!checkerboard_ok || s.engine == EngineChoice::direct || !all_in_place)) {
    plan.route = Route::block_cyclic;
    BlockCyclicPlan& p = plan.direct;
    Settings chunked = s;  // the block-cyclic route's panels are its chunks: M = b
    chunked.outer = 0;
    p.panels = panels_for(grid, {sh.m, sh.n, sh.k, chunked, &e});
    p.chunks = chunk_plan(std::move(*aligned.rows), std::move(*aligned.cols), p.stage_a ? p.a_cols : plan.A->cols,
                          p.stage_b ? p.b_rows : plan.B->rows, p.panels.b);
  } else {
    plan.route = Route::checkerboard;
    const ShapeKey key{sh.m, sh.n, sh.k, s};
    cb.engine = EngineKey{key, panels_for(grid, key)};
  }
  return plan;
}

}  // namespace hympi::hsumma::scalapack
