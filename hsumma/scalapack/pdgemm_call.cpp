#include "pdgemm_call.hpp"

#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "block_cyclic_summa.hpp"
#include "grid_cache.hpp"
#include "hympi/error.hpp"
#include "pdgemm_route.hpp"
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

// A stopwatch adding each lap to one phase's bucket (one clock read per lap).
class Laps {
 public:
  Laps() : mark_(MPI_Wtime()) {}
  void lap(double& bucket) {
    const double now = MPI_Wtime();
    bucket += now - mark_;
    mark_ = now;
  }

 private:
  double mark_;
};

// C := beta * C on the caller's submatrix; beta = 0 writes zeros. A process's
// rows of a block-cyclic submatrix are consecutive locally: one run per column.
void scale_local(const summa::Element& e, const CallerMatrix& c, void* data, int myrow, int mycol, const void* beta) {
  if (e.is_one(beta)) return;
  std::int64_t first = -1, count = 0;
  for (std::int64_t i = 0; i < c.rows.size(); ++i)
    if (c.rows.owner[static_cast<std::size_t>(i)] == myrow) {
      if (count++ == 0) first = c.rows.local[static_cast<std::size_t>(i)];
    }
  if (count == 0) return;
  for (std::int64_t j = 0; j < c.cols.size(); ++j)
    if (c.cols.owner[static_cast<std::size_t>(j)] == mycol)
      e.scale(summa::advance(data, c.cols.local[static_cast<std::size_t>(j)] * c.desc.lld + first, e), count, beta);
}

// The block-cyclic route's plan: the groups, the staged layouts and the k chunks
// (no wider than b). Collective over the grid when groups or block are auto.
struct BlockCyclicPlan {
  int groups_i, groups_j;
  StagedAxes staged;
  ChunkPlan chunks;
};

BlockCyclicPlan plan_block_cyclic(const PdgemmCall& call, const CallShape& sh, const Settings& s, const Decision& d,
                                  GridEntry& grid) {
  int groups_i = std::gcd(s.group_rows, sh.nprow), groups_j = std::gcd(s.group_cols, sh.npcol);
  std::int64_t b = s.block;
  if (s.auto_groups() || s.auto_block()) {
    const AutoPlan ap = grid.block_cyclic_auto_plan({sh.m, sh.n, sh.k, s, &call.elem});
    groups_i = ap.I, groups_j = ap.J;
    if (s.auto_block()) b = ap.b;
  }
  StagedAxes st(*d.C, d.stage_a, d.stage_b, s, sh.nprow, sh.npcol, sh.k);
  auto chunks = plan_chunks(d.stage_a ? st.a_rows : d.A->rows, d.stage_a ? st.a_cols : d.A->cols,
                            d.stage_b ? st.b_rows : d.B->rows, d.stage_b ? st.b_cols : d.B->cols, d.C->rows, d.C->cols,
                            sh.nprow, sh.npcol, b);
  require(chunks.has_value(), "pdgemm: the block-cyclic plan failed after the grid agreed on it");
  return {groups_i, groups_j, std::move(st), std::move(*chunks)};
}

// sub(C) = alpha * op(A) * op(B) + beta * sub(C) on the caller's arrays.
void run_block_cyclic(const PdgemmCall& call, const CallShape& sh, const Settings& s, const Decision& d,
                      BlockCyclicPlan plan, GridEntry& grid) {
  const GridPos& pos = grid.pos();
  std::optional<StagedOperand> sa, sb;
  const summa::Element& e = call.elem;
  PhaseSeconds& t = phase_seconds(e.code);
  Laps laps;
  // Staged operands' storage, kept between calls (no fresh pages per call).
  static std::vector<std::byte> a_storage, b_storage;
  if (d.stage_a)
    sa.emplace(pos, e, SourceMatrix{d.A->rows, d.A->cols, call.a, d.A->desc.lld}, copy_op(sh.ta),
               std::move(plan.staged.a_rows), std::move(plan.staged.a_cols), a_storage);
  if (d.stage_b)
    sb.emplace(pos, e, SourceMatrix{d.B->rows, d.B->cols, call.b, d.B->desc.lld}, copy_op(sh.tb),
               std::move(plan.staged.b_rows), std::move(plan.staged.b_cols), b_storage);
  laps.lap(t.staging);
  scale_local(e, *d.C, call.c, sh.myrow, sh.mycol, call.beta);
  laps.lap(t.scale);
  const ChunkPlan& chunks = plan.chunks;
  PanelLines& lines = grid.lines();
  lines.reserve(chunks.rows.max_count() * chunks.width, chunks.width * chunks.cols.max_count(), s, plan.groups_i,
                plan.groups_j, e.size);
  const LocalArray a_in = sa ? LocalArray{sa->data, sa->ld} : LocalArray{call.a, d.A->desc.lld};
  const LocalArray b_in = sb ? LocalArray{sb->data, sb->ld} : LocalArray{call.b, d.B->desc.lld};
  laps.lap(t.panels);  // building or resizing the lines
  block_cyclic_summa(chunks, lines, pos, e, call.alpha, a_in, b_in, call.c, d.C->desc.lld,
                     [&](summa::Phase phase) { laps.lap(phase == summa::Phase::updated ? t.gemm : t.panels); });
  laps.lap(t.panels);
}

// The same on the engine's block checkerboard (doubles only): what is not in its
// layout is redistributed in (A, B) and out (C).
void run_checkerboard(const PdgemmCall& call, const CallShape& sh, const Decision& d, Engine& engine,
                      const GridPos& pos) {
  const summa::Element& e = call.elem;
  require(e.code == 'd', "pdgemm: the checkerboard engine runs doubles only");
  PhaseSeconds& t = phase_seconds(e.code);
  Laps laps;
  const CheckerboardAxes ax(sh);
  const LocalBlock ab = engine.a_block(), bb = engine.b_block(), cb = engine.c_block();
  std::vector<double> a_buf, b_buf, c_buf;
  const auto* a = static_cast<const double*>(call.a);
  const auto* b = static_cast<const double*>(call.b);
  auto* c = static_cast<double*>(call.c);
  if (!d.a_in_place) {
    a_buf.resize(static_cast<std::size_t>(ab.elements()));
    redistribute(pos, e, {d.A->rows, d.A->cols, call.a, d.A->desc.lld}, copy_op(sh.ta),
                 {ax.a_rows, ax.a_cols, a_buf.data(), ab.ld()}, e.one, e.zero);
    a = a_buf.data();
  }
  if (!d.b_in_place) {
    b_buf.resize(static_cast<std::size_t>(bb.elements()));
    redistribute(pos, e, {d.B->rows, d.B->cols, call.b, d.B->desc.lld}, copy_op(sh.tb),
                 {ax.b_rows, ax.b_cols, b_buf.data(), bb.ld()}, e.one, e.zero);
    b = b_buf.data();
  }
  if (!d.c_in_place) {
    c_buf.resize(static_cast<std::size_t>(cb.elements()));
    c = c_buf.data();
  }
  laps.lap(t.staging);
  const Timings mt = engine.multiply(a, b, c);
  laps.lap(t.gemm);
  t.gemm -= mt.bcast + mt.sync, t.panels += mt.bcast + mt.sync;
  if (!d.c_in_place)
    redistribute(pos, e, {ax.a_rows, ax.b_cols, c_buf.data(), cb.ld()}, Op::none,
                 {d.C->rows, d.C->cols, call.c, d.C->desc.lld}, call.alpha, call.beta);
  laps.lap(t.staging);
}

// The call, timed by run_pdgemm.
Outcome run_call(const PdgemmCall& call) {
  const Settings& s = settings();
  if (!s.enabled) return Outcome::unsupported;
  const std::optional<CallShape> shape = read_shape(call);
  if (!shape) return Outcome::invalid;
  GridEntry& grid = GridCache::instance().of(shape->da.ctxt, shape->nprow, shape->npcol, shape->myrow, shape->mycol);
  const Decision d = decide(call, *shape, s, grid.pos());
  switch (d.route) {
    case Route::invalid:
      return Outcome::invalid;
    case Route::scale_only:  // an empty C is left alone
      scale_local(call.elem, *d.C, call.c, shape->myrow, shape->mycol, call.beta);
      return Outcome::run;
    case Route::block_cyclic:
      run_block_cyclic(call, *shape, s, d, plan_block_cyclic(call, *shape, s, d, grid), grid);
      return Outcome::run_direct;
    case Route::checkerboard:
      run_checkerboard(call, *shape, d, grid.engine({shape->m, shape->n, shape->k, s}), grid.pos());
      return Outcome::run;
  }
  return Outcome::invalid;
}

}  // namespace

Outcome run_pdgemm(const PdgemmCall& call) {
  const double start = MPI_Wtime();
  const Outcome outcome = run_call(call);
  if (outcome == Outcome::run || outcome == Outcome::run_direct)
    phase_seconds(call.elem.code).total += MPI_Wtime() - start;
  return outcome;
}

}  // namespace hympi::hsumma::scalapack
