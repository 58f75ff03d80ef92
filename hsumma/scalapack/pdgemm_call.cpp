#include "pdgemm_call.hpp"

#include <cctype>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "block_cyclic_summa.hpp"
#include "descriptor.hpp"
#include "grid_cache.hpp"
#include "hympi/error.hpp"
#include "hympi/hsumma/scalapack.hpp"
#include "redistribute.hpp"
#include "settings.hpp"
#include "staged_operand.hpp"

namespace hympi::hsumma::scalapack {

namespace {

// Bits of the flag word every grid rank agrees on (bitwise AND over the grid).
// *_direct_bit: that operand is already in the engine's layout; aligned_bit: the
// direct engine can run the call (both decided on replicated data; ANDed for safety).
enum : int { ok_bit = 1, a_direct_bit = 2, b_direct_bit = 4, c_direct_bit = 8, aligned_bit = 16 };

char op_of(char t) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(t)));
  return u == 'C' ? 'T' : u;  // conjugate transpose is transpose for real data
}

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

// The engine's block checkerboard of an r x c matrix.
Axis block_axis(std::int64_t len, int nprocs) {
  const std::int64_t nb = len > 0 ? (len + nprocs - 1) / nprocs : 1;
  return Axis::of({len, nb, nb, 0, nprocs}, 0, len);
}

// The caller's layout is already the engine's: pass the pointer through.
bool same_layout(const CallerMatrix& x, const Axis& rows, const Axis& cols, const LocalBlock& block) {
  return x.rows == rows && x.cols == cols && x.desc.lld == block.ld();
}

// C := beta * C on the caller's submatrix (alpha = 0 or k = 0); beta = 0 writes zeros.
void scale_local(const CallerMatrix& c, double* data, int myrow, int mycol, double beta) {
  if (beta == 1.0) return;
  for (std::int64_t j = 0; j < c.cols.size(); ++j) {
    if (c.cols.owner[static_cast<std::size_t>(j)] != mycol) continue;
    double* column = data + c.cols.local[static_cast<std::size_t>(j)] * c.desc.lld;
    for (std::int64_t i = 0; i < c.rows.size(); ++i) {
      if (c.rows.owner[static_cast<std::size_t>(i)] != myrow) continue;
      double& x = column[c.rows.local[static_cast<std::size_t>(i)]];
      x = beta == 0.0 ? 0.0 : beta * x;
    }
  }
}

// The k block of staged operands: the inner panel width (block=auto: the widest candidate).
std::int64_t staged_k_block(const Settings& s) {
  return s.auto_block() ? 512 : s.block;
}

// The layouts staged operands get (staged_operand.hpp): A's rows like C's and
// k over the process columns, B's columns like C's and k over the process rows.
// Empty for an operand not staged. Replicated data only.
struct StagedAxes {
  Axis a_rows, a_cols, b_rows, b_cols;
  StagedAxes(const CallerMatrix& C, bool stage_a, bool stage_b, const Settings& s, int nprow, int npcol,
             std::int64_t k) {
    if (stage_a) a_rows = compact(C.rows, nprow), a_cols = k_axis(k, staged_k_block(s), npcol);
    if (stage_b) b_rows = k_axis(k, staged_k_block(s), nprow), b_cols = compact(C.cols, npcol);
  }
};

// The direct engine's plan with A and/or B as they will be staged (every grid
// rank plans alike). cap: the widest k chunk.
std::optional<DirectPlan> plan_axes(const CallerMatrix& A, const CallerMatrix& B, const CallerMatrix& C, bool stage_a,
                                    bool stage_b, const StagedAxes& st, int nprow, int npcol, std::int64_t cap) {
  return plan_direct(stage_a ? st.a_rows : A.rows, stage_a ? st.a_cols : A.cols, stage_b ? st.b_rows : B.rows,
                     stage_b ? st.b_cols : B.cols, C.rows, C.cols, nprow, npcol, cap);
}

// Narrow k chunks (the caller's k blocks, e.g. nb = 64) make many small
// broadcasts and rank-nb updates: staging one more operand onto k blocks of the
// panel width costs one redistribution of it and pays when it at least halves
// the number of chunks (n = 4096, nb = 64 on 1x2: 1.62 s -> 1.39 s per call).
void widen(const CallerMatrix& A, const CallerMatrix& B, const CallerMatrix& C, bool& stage_a, bool& stage_b,
           const Settings& s, int nprow, int npcol, std::int64_t k) {
  const std::int64_t cap = staged_k_block(s);
  const auto chunks = [&](bool sa, bool sb) {
    const auto plan = plan_axes(A, B, C, sa, sb, StagedAxes(C, sa, sb, s, nprow, npcol, k), nprow, npcol, cap);
    return plan ? plan->chunks.size() : std::numeric_limits<std::size_t>::max();
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

}  // namespace

Outcome run_pdgemm(const PdgemmCall& call) {
  const Settings& s = settings();
  if (!s.enabled) return Outcome::unsupported;
  // Checks on replicated arguments: every rank of the grid decides alike.
  const char ta = op_of(call.transa), tb = op_of(call.transb);
  if ((ta != 'N' && ta != 'T') || (tb != 'N' && tb != 'T')) return Outcome::invalid;
  if (call.m < 0 || call.n < 0 || call.k < 0) return Outcome::invalid;
  const auto da = read_descriptor(call.desca), db = read_descriptor(call.descb), dc = read_descriptor(call.descc);
  if (!da || !db || !dc || da->ctxt != db->ctxt || da->ctxt != dc->ctxt) return Outcome::invalid;
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_gridinfo(da->ctxt, &nprow, &npcol, &myrow, &mycol);
  if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0) return Outcome::invalid;
  const std::int64_t m = call.m, n = call.n, k = call.k;
  const std::int64_t a_rows = ta == 'N' ? m : k, a_cols = ta == 'N' ? k : m;
  const std::int64_t b_rows = tb == 'N' ? k : n, b_cols = tb == 'N' ? n : k;
  const SubmatrixRef refs[3] = {
      {*da, call.ia, call.ja, a_rows, a_cols}, {*db, call.ib, call.jb, b_rows, b_cols}, {*dc, call.ic, call.jc, m, n}};
  int flags = ok_bit;  // the local leading dimensions make this rank-local
  for (const SubmatrixRef& ref : refs)
    if (check_submatrix(ref, nprow, npcol, myrow)) flags = 0;

  GridEntry& grid = GridCache::instance().of(da->ctxt, nprow, npcol, myrow, mycol);
  const GridPos& pos = grid.pos();
  const bool multiply = flags && m > 0 && n > 0 && k > 0 && call.alpha != 0.0;
  std::unique_ptr<CallerMatrix> A, B, C;
  std::optional<DirectPlan> plan;
  bool stage_a = false, stage_b = false;
  std::optional<StagedAxes> staged;
  Axis ea_rows, ea_cols, eb_rows, eb_cols, ec_rows, ec_cols;
  if (flags) C = std::make_unique<CallerMatrix>(*dc, nprow, npcol, call.ic, call.jc, m, n);
  if (multiply) {
    A = std::make_unique<CallerMatrix>(*da, nprow, npcol, call.ia, call.ja, a_rows, a_cols);
    B = std::make_unique<CallerMatrix>(*db, nprow, npcol, call.ib, call.jb, b_rows, b_cols);
    ea_rows = block_axis(m, nprow), ea_cols = block_axis(k, npcol);
    eb_rows = block_axis(k, nprow), eb_cols = block_axis(n, npcol);
    ec_rows = ea_rows, ec_cols = eb_cols;
    // The block sizes of the local blocks, before building an engine (no collective yet).
    const LocalBlock a_blk{BlockCyclic1D::block(m, nprow), BlockCyclic1D::block(k, npcol), myrow, mycol};
    const LocalBlock b_blk{BlockCyclic1D::block(k, nprow), BlockCyclic1D::block(n, npcol), myrow, mycol};
    const LocalBlock c_blk{BlockCyclic1D::block(m, nprow), BlockCyclic1D::block(n, npcol), myrow, mycol};
    if (ta == 'N' && same_layout(*A, ea_rows, ea_cols, a_blk)) flags |= a_direct_bit;
    if (tb == 'N' && same_layout(*B, eb_rows, eb_cols, b_blk)) flags |= b_direct_bit;
    if (call.alpha == 1.0 && call.beta == 0.0 && same_layout(*C, ec_rows, ec_cols, c_blk)) flags |= c_direct_bit;
    if (s.engine != EngineChoice::redistribute) {
      // An operand unlike C is staged (staged_operand.hpp); narrow k blocks widened.
      stage_a = !(ta == 'N' && align(A->rows, C->rows, nprow));
      stage_b = !(tb == 'N' && align(B->cols, C->cols, npcol));
      widen(*A, *B, *C, stage_a, stage_b, s, nprow, npcol, k);
      staged.emplace(*C, stage_a, stage_b, s, nprow, npcol, k);
      plan = plan_axes(*A, *B, *C, stage_a, stage_b, *staged, nprow, npcol, s.auto_block() ? 1 : s.block);
    }
    if (plan) flags |= aligned_bit;
  }
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &flags, 1, MPI_INT, MPI_BAND, pos.comm));
  if (!(flags & ok_bit)) return Outcome::invalid;
  if (!multiply) {  // nothing to multiply: C = beta * C (an empty C is left alone)
    if (C) scale_local(*C, call.c, myrow, mycol, call.beta);
    return Outcome::run;
  }

  const int in_place = a_direct_bit | b_direct_bit | c_direct_bit;
  if ((flags & aligned_bit) && (s.engine == EngineChoice::direct || (flags & in_place) != in_place)) {
    int groups_i = std::gcd(s.group_rows, nprow), groups_j = std::gcd(s.group_cols, npcol);
    if (s.auto_groups() || s.auto_block()) {
      const AutoPlan ap = grid.direct_plan({m, n, k, s});
      groups_i = ap.I, groups_j = ap.J;
      if (s.auto_block())  // planned again with the model's b
        plan = plan_axes(*A, *B, *C, stage_a, stage_b, *staged, nprow, npcol, ap.b);
    }
    std::optional<StagedOperand> sa, sb;
    if (stage_a)
      sa.emplace(pos, SourceMatrix{A->rows, A->cols, call.a, A->desc.lld}, ta == 'T', std::move(staged->a_rows),
                 std::move(staged->a_cols));
    if (stage_b)
      sb.emplace(pos, SourceMatrix{B->rows, B->cols, call.b, B->desc.lld}, tb == 'T', std::move(staged->b_rows),
                 std::move(staged->b_cols));
    scale_local(*C, call.c, myrow, mycol, call.beta);
    PanelLines& lines = grid.lines();
    lines.reserve(plan->rows.max_count() * plan->width, plan->width * plan->cols.max_count(), s, groups_i, groups_j);
    const LocalArray a_in = sa ? LocalArray{sa->data.data(), sa->ld} : LocalArray{call.a, A->desc.lld};
    const LocalArray b_in = sb ? LocalArray{sb->data.data(), sb->ld} : LocalArray{call.b, B->desc.lld};
    block_cyclic_summa(*plan, lines, pos, call.alpha, a_in, b_in, call.c, C->desc.lld);
    return Outcome::run_direct;
  }

  Engine* engine = &grid.engine({m, n, k, s});
  const LocalBlock ab = engine->a_block(), bb = engine->b_block(), cb = engine->c_block();
  std::vector<double> a_buf, b_buf, c_buf;
  const double* a = call.a;
  const double* b = call.b;
  double* c = call.c;
  if (!(flags & a_direct_bit)) {
    a_buf.resize(static_cast<std::size_t>(ab.elements()));
    redistribute(pos, {A->rows, A->cols, call.a, A->desc.lld}, ta == 'T', {ea_rows, ea_cols, a_buf.data(), ab.ld()},
                 1.0, 0.0);
    a = a_buf.data();
  }
  if (!(flags & b_direct_bit)) {
    b_buf.resize(static_cast<std::size_t>(bb.elements()));
    redistribute(pos, {B->rows, B->cols, call.b, B->desc.lld}, tb == 'T', {eb_rows, eb_cols, b_buf.data(), bb.ld()},
                 1.0, 0.0);
    b = b_buf.data();
  }
  if (!(flags & c_direct_bit)) {
    c_buf.resize(static_cast<std::size_t>(cb.elements()));
    c = c_buf.data();
  }
  engine->multiply(a, b, c);
  if (!(flags & c_direct_bit))
    redistribute(pos, {ec_rows, ec_cols, c_buf.data(), cb.ld()}, false, {C->rows, C->cols, call.c, C->desc.lld},
                 call.alpha, call.beta);
  return Outcome::run;
}

}  // namespace hympi::hsumma::scalapack
