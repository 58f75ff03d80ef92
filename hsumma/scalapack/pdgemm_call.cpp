#include "pdgemm_call.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "block_cyclic_summa.hpp"
#include "call_shape.hpp"
#include "grid_cache.hpp"
#include "hympi/error.hpp"
#include "pdgemm_route.hpp"
#include "phase_laps.hpp"
#include "redistribute.hpp"
#include "settings.hpp"
#include "staged_operand.hpp"

namespace hympi::hsumma::scalapack {

PhaseSeconds& phase_seconds(char precision) {
  static PhaseSeconds seconds[4];
  const char* codes = "sdcz";
  for (int i = 0; i < 4; ++i)
    if (codes[i] == precision) return seconds[i];
  return seconds[1];
}

namespace {

// C := beta * C on the caller's submatrix; beta = 0 writes zeros. A process's
// rows of a block-cyclic submatrix are consecutive locally: one run per column.
void scale_local(const summa::Element& e, const CallerMatrix& c, void* data, int myrow, int mycol, const void* beta) {
  if (e.is_one(beta)) return;
  std::int64_t first = -1, count = 0;
  for (std::int64_t i = 0; i < c.rows.size(); ++i)
    if (c.rows.owner(i) == myrow) {
      if (count++ == 0) first = c.rows.local(i);
    }
  if (count == 0) return;
  for (std::int64_t j = 0; j < c.cols.size(); ++j)
    if (c.cols.owner(j) == mycol) e.scale(summa::advance(data, c.cols.local(j) * c.desc.lld + first, e), count, beta);
}

// sub(C) = alpha * op(A) * op(B) + beta * sub(C) on the caller's arrays, as planned.
void run_block_cyclic(const PdgemmCall& call, const CallShape& sh, Plan& plan, GridEntry& grid) {
  const GridPos& pos = grid.pos();
  BlockCyclicPlan& p = plan.direct;
  const CallerMatrix &A = *plan.A, &B = *plan.B, &C = *plan.C;
  std::optional<StagedOperand> sa, sb;
  const summa::Element& e = call.elem;
  PhaseSeconds& t = phase_seconds(e.code);
  Laps laps;
  // Staged operands' storage, kept between calls (no fresh pages per call).
  static std::vector<std::byte> a_storage, b_storage;
  if (p.stage_a)
    sa.emplace(pos, e, SourceMatrix{A.rows, A.cols, call.a, A.desc.lld}, sh.a_op, std::move(p.staged.a_rows),
               std::move(p.staged.a_cols), a_storage);
  if (p.stage_b)
    sb.emplace(pos, e, SourceMatrix{B.rows, B.cols, call.b, B.desc.lld}, sh.b_op, std::move(p.staged.b_rows),
               std::move(p.staged.b_cols), b_storage);
  laps.lap(t.staging);
  scale_local(e, C, call.c, sh.myrow, sh.mycol, call.beta);
  laps.lap(t.scale);
  const ChunkPlan& chunks = p.chunks;
  const PanelLineSet lines =
      grid.lines().reserve(chunks.rows.max_count() * chunks.width, chunks.width * chunks.cols.max_count(), plan.options,
                           p.panels.I, p.panels.J, e.size);
  const LocalArray a_in = sa ? LocalArray{sa->data, sa->ld} : LocalArray{call.a, A.desc.lld};
  const LocalArray b_in = sb ? LocalArray{sb->data, sb->ld} : LocalArray{call.b, B.desc.lld};
  laps.lap(t.panels);  // building or resizing the lines
  StepLaps steps{laps, t.gemm, t.panels};
  block_cyclic_summa(chunks, lines, pos, e, call.alpha, a_in, b_in, call.c, C.desc.lld, &steps);
  laps.lap(t.panels);
}

// The same on the engine's block checkerboard (doubles only), as planned: what
// is not in its layout is redistributed in (A, B) and out (C).
void run_checkerboard(const PdgemmCall& call, const CallShape& sh, const Plan& plan, GridEntry& grid) {
  const summa::Element& e = call.elem;
  require(e.code == 'd', "pdgemm: the checkerboard engine runs doubles only");
  const CheckerboardPlan& p = plan.checkerboard;
  const CallerMatrix &A = *plan.A, &B = *plan.B, &C = *plan.C;
  const GridPos& pos = grid.pos();
  Engine& engine = grid.engine(*p.engine, p.engine_options);
  PhaseSeconds& t = phase_seconds(e.code);
  Laps laps;
  const LocalBlock &ab = p.blocks.a, &bb = p.blocks.b, &cb = p.blocks.c;
  std::vector<double> a_buf, b_buf, c_buf;
  const auto* a = static_cast<const double*>(call.a);
  const auto* b = static_cast<const double*>(call.b);
  auto* c = static_cast<double*>(call.c);
  if (!p.a_in_place) {
    a_buf.resize(static_cast<std::size_t>(ab.elements()));
    redistribute(pos, e, {A.rows, A.cols, call.a, A.desc.lld}, sh.a_op, {p.a_rows, p.a_cols, a_buf.data(), ab.ld()},
                 e.one, e.zero);
    a = a_buf.data();
  }
  if (!p.b_in_place) {
    b_buf.resize(static_cast<std::size_t>(bb.elements()));
    redistribute(pos, e, {B.rows, B.cols, call.b, B.desc.lld}, sh.b_op, {p.b_rows, p.b_cols, b_buf.data(), bb.ld()},
                 e.one, e.zero);
    b = b_buf.data();
  }
  if (!p.c_in_place) {
    c_buf.resize(static_cast<std::size_t>(cb.elements()));
    c = c_buf.data();
  }
  laps.lap(t.staging);
  const Timings mt = engine.multiply(a, b, c);
  laps.lap(t.gemm);
  t.gemm -= mt.bcast + mt.sync, t.panels += mt.bcast + mt.sync;
  if (!p.c_in_place)
    redistribute(pos, e, {p.a_rows, p.b_cols, c_buf.data(), cb.ld()}, Op::none, {C.rows, C.cols, call.c, C.desc.lld},
                 call.alpha, call.beta);
  laps.lap(t.staging);
}

// The call, timed by run_pdgemm: decided and planned once (decide), then run.
Outcome run_call(const PdgemmCall& call, const Settings& s) {
  if (!s.enabled) return Outcome::unsupported;
  const std::optional<CallShape> shape = read_shape(call);
  if (!shape) return Outcome::invalid;
  GridEntry& grid = GridCache::instance().of(shape->da.ctxt, shape->nprow, shape->npcol, shape->myrow, shape->mycol);
  Plan plan = decide(call, *shape, s, grid);
  switch (plan.route) {
    case Route::invalid:
      return Outcome::invalid;
    case Route::scale_only:  // an empty C is left alone
      scale_local(call.elem, *plan.C, call.c, shape->myrow, shape->mycol, call.beta);
      return Outcome::run;
    case Route::block_cyclic:
      run_block_cyclic(call, *shape, plan, grid);
      return Outcome::run_direct;
    case Route::checkerboard:
      run_checkerboard(call, *shape, plan, grid);
      return Outcome::run;
  }
  return Outcome::invalid;
}

}  // namespace

Outcome run_pdgemm(const PdgemmCall& call, const Settings& s) {
  const double start = MPI_Wtime();
  const Outcome outcome = run_call(call, s);
  if (outcome == Outcome::run || outcome == Outcome::run_direct)
    phase_seconds(call.elem.code).total += MPI_Wtime() - start;
  return outcome;
}

}  // namespace hympi::hsumma::scalapack
