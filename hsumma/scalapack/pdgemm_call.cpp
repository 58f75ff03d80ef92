#include "pdgemm_call.hpp"

#include <cctype>
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

// The call's arguments every grid rank shares: a rank decides on them alone.
struct CallShape {
  char ta, tb;  // op(A), op(B): 'N' or 'T'
  std::int64_t m, n, k;
  Descriptor da, db, dc;
  int nprow, npcol, myrow, mycol;
  std::int64_t a_rows() const { return ta == 'N' ? m : k; }
  std::int64_t a_cols() const { return ta == 'N' ? k : m; }
  std::int64_t b_rows() const { return tb == 'N' ? k : n; }
  std::int64_t b_cols() const { return tb == 'N' ? n : k; }
};

// The shape of a call, or nothing when its replicated arguments are invalid.
std::optional<CallShape> read_shape(const PdgemmCall& call) {
  const char ta = op_of(call.transa), tb = op_of(call.transb);
  if ((ta != 'N' && ta != 'T') || (tb != 'N' && tb != 'T')) return std::nullopt;
  if (call.m < 0 || call.n < 0 || call.k < 0) return std::nullopt;
  const auto da = read_descriptor(call.desca), db = read_descriptor(call.descb), dc = read_descriptor(call.descc);
  if (!da || !db || !dc || da->ctxt != db->ctxt || da->ctxt != dc->ctxt) return std::nullopt;
  CallShape shape{ta, tb, call.m, call.n, call.k, *da, *db, *dc, -1, -1, -1, -1};
  Cblacs_gridinfo(da->ctxt, &shape.nprow, &shape.npcol, &shape.myrow, &shape.mycol);
  if (shape.nprow < 1 || shape.npcol < 1 || shape.myrow < 0 || shape.mycol < 0) return std::nullopt;
  return shape;
}

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

// The checkerboard engine's axes of the call (its block distribution).
struct CheckerboardAxes {
  Axis a_rows, a_cols, b_rows, b_cols;
  explicit CheckerboardAxes(const CallShape& sh)
      : a_rows(block_axis(sh.m, sh.nprow)),
        a_cols(block_axis(sh.k, sh.npcol)),
        b_rows(block_axis(sh.k, sh.nprow)),
        b_cols(block_axis(sh.n, sh.npcol)) {}
};

// Which operands the block-cyclic route stages: those unlike C, then more where
// that widens narrow k chunks (widen). Replicated data only.
void choose_staging(const CallShape& sh, const Settings& s, Decision& d) {
  d.stage_a = !(sh.ta == 'N' && align(d.A->rows, d.C->rows, sh.nprow));
  d.stage_b = !(sh.tb == 'N' && align(d.B->cols, d.C->cols, sh.npcol));
  widen(*d.A, *d.B, d.stage_a, d.stage_b, s, sh.nprow, sh.npcol, sh.k);
}

// Decides the route: argument checks (rank-local ones agreed over the grid) and
// the layouts of A, B and C. Collective over the grid (one allreduce).
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
  const bool multiply = votes.ok && sh.m > 0 && sh.n > 0 && sh.k > 0 && call.alpha != 0.0;
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
    votes.c_in_place = call.alpha == 1.0 && call.beta == 0.0 && same_layout(*d.C, ax.a_rows, ax.b_cols, c_blk);
    if (s.engine != EngineChoice::redistribute) {
      choose_staging(sh, s, d);
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
  else if (aligned && (s.engine == EngineChoice::direct || !all_in_place))
    d.route = Route::block_cyclic;
  else
    d.route = Route::checkerboard;
  return d;
}

// The block-cyclic route's plan: the groups, the staged layouts and the k chunks
// (no wider than b). Collective over the grid when groups or block are auto.
struct BlockCyclicPlan {
  int groups_i, groups_j;
  StagedAxes staged;
  DirectPlan chunks;
};

BlockCyclicPlan plan_block_cyclic(const CallShape& sh, const Settings& s, const Decision& d, GridEntry& grid) {
  int groups_i = std::gcd(s.group_rows, sh.nprow), groups_j = std::gcd(s.group_cols, sh.npcol);
  std::int64_t b = s.block;
  if (s.auto_groups() || s.auto_block()) {
    const AutoPlan ap = grid.direct_plan({sh.m, sh.n, sh.k, s});
    groups_i = ap.I, groups_j = ap.J;
    if (s.auto_block()) b = ap.b;
  }
  StagedAxes st(*d.C, d.stage_a, d.stage_b, s, sh.nprow, sh.npcol, sh.k);
  auto chunks = plan_direct(d.stage_a ? st.a_rows : d.A->rows, d.stage_a ? st.a_cols : d.A->cols,
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
  if (d.stage_a)
    sa.emplace(pos, SourceMatrix{d.A->rows, d.A->cols, call.a, d.A->desc.lld}, sh.ta == 'T',
               std::move(plan.staged.a_rows), std::move(plan.staged.a_cols));
  if (d.stage_b)
    sb.emplace(pos, SourceMatrix{d.B->rows, d.B->cols, call.b, d.B->desc.lld}, sh.tb == 'T',
               std::move(plan.staged.b_rows), std::move(plan.staged.b_cols));
  scale_local(*d.C, call.c, sh.myrow, sh.mycol, call.beta);
  const DirectPlan& chunks = plan.chunks;
  PanelLines& lines = grid.lines();
  lines.reserve(chunks.rows.max_count() * chunks.width, chunks.width * chunks.cols.max_count(), s, plan.groups_i,
                plan.groups_j);
  const LocalArray a_in = sa ? LocalArray{sa->data.data(), sa->ld} : LocalArray{call.a, d.A->desc.lld};
  const LocalArray b_in = sb ? LocalArray{sb->data.data(), sb->ld} : LocalArray{call.b, d.B->desc.lld};
  block_cyclic_summa(chunks, lines, pos, call.alpha, a_in, b_in, call.c, d.C->desc.lld);
}

// The same on the engine's block checkerboard: what is not in its layout is
// redistributed in (A, B) and out (C).
void run_checkerboard(const PdgemmCall& call, const CallShape& sh, const Decision& d, Engine& engine,
                      const GridPos& pos) {
  const CheckerboardAxes ax(sh);
  const LocalBlock ab = engine.a_block(), bb = engine.b_block(), cb = engine.c_block();
  std::vector<double> a_buf, b_buf, c_buf;
  const double* a = call.a;
  const double* b = call.b;
  double* c = call.c;
  if (!d.a_in_place) {
    a_buf.resize(static_cast<std::size_t>(ab.elements()));
    redistribute(pos, {d.A->rows, d.A->cols, call.a, d.A->desc.lld}, sh.ta == 'T',
                 {ax.a_rows, ax.a_cols, a_buf.data(), ab.ld()}, 1.0, 0.0);
    a = a_buf.data();
  }
  if (!d.b_in_place) {
    b_buf.resize(static_cast<std::size_t>(bb.elements()));
    redistribute(pos, {d.B->rows, d.B->cols, call.b, d.B->desc.lld}, sh.tb == 'T',
                 {ax.b_rows, ax.b_cols, b_buf.data(), bb.ld()}, 1.0, 0.0);
    b = b_buf.data();
  }
  if (!d.c_in_place) {
    c_buf.resize(static_cast<std::size_t>(cb.elements()));
    c = c_buf.data();
  }
  engine.multiply(a, b, c);
  if (!d.c_in_place)
    redistribute(pos, {ax.a_rows, ax.b_cols, c_buf.data(), cb.ld()}, false,
                 {d.C->rows, d.C->cols, call.c, d.C->desc.lld}, call.alpha, call.beta);
}

}  // namespace

Outcome run_pdgemm(const PdgemmCall& call) {
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
      scale_local(*d.C, call.c, shape->myrow, shape->mycol, call.beta);
      return Outcome::run;
    case Route::block_cyclic:
      run_block_cyclic(call, *shape, s, d, plan_block_cyclic(*shape, s, d, grid), grid);
      return Outcome::run_direct;
    case Route::checkerboard:
      run_checkerboard(call, *shape, d, grid.engine({shape->m, shape->n, shape->k, s}), grid.pos());
      return Outcome::run;
  }
  return Outcome::invalid;
}

}  // namespace hympi::hsumma::scalapack
