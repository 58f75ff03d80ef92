// MPI test of the drop-in's plan (hsumma/scalapack/pdgemm_route.hpp): decide
// plans a call once, and its parts agree with each other and with what runs.
// On every P x Q grid of the ranks, for aligned, transposed and misaligned
// calls under fixed groups and blocks:
//  - the block-cyclic route's panels are the settings' (groups shrunk by
//    Settings::groups_on, b = block), no k chunk is wider than b, and staged
//    operands have k blocks of the widest panel (widest_block);
//  - the checkerboard route's engine key has the same groups and b (M from
//    outer), the engine is built with exactly the key's sizes and panels, and
//    the layout the plan decided "in place" with is the engine's own
//    (checkerboard_blocks, the one layout function).
// Exit 1 on every rank on any failure (mpi_check.hpp).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "grid_cache.hpp"
#include "mpi_check.hpp"
#include "pdgemm_route.hpp"

namespace {

using namespace hympi::hsumma;
using namespace hympi::hsumma::scalapack;
using hympi::test::check;

struct Case {
  char ta, tb;
  std::int64_t m, n, k, nb;  // nb: the caller's blocks (A's k blocks differ when `skew`)
  bool skew;                 // A's rows start one block later than C's (misaligned)
};

Descriptor descriptor(std::int64_t rows, std::int64_t cols, std::int64_t mb, std::int64_t nb, int P, int myrow) {
  Descriptor d;
  d.ctxt = 0, d.m = rows, d.n = cols, d.imb = d.mb = mb, d.inb = d.nb = nb;
  d.lld = std::max<std::int64_t>(1, CyclicDim{rows, mb, mb, 0, P}.local_size(myrow));
  return d;
}

bool same_block(const LocalBlock& x, const LocalBlock& y) {
  return x.rows.n == y.rows.n && x.rows.nb == y.rows.nb && x.rows.nprocs == y.rows.nprocs && x.cols.n == y.cols.n &&
         x.cols.nb == y.cols.nb && x.cols.nprocs == y.cols.nprocs && x.row_proc == y.row_proc &&
         x.col_proc == y.col_proc;
}

void check_case(GridEntry& grid, const Case& c, Settings s, const std::string& what) {
  const GridPos& pos = grid.pos();
  const int P = pos.rows, Q = pos.cols;
  const double one = 1.0, zero = 0.0;
  const std::int64_t ar = c.ta == 'N' ? c.m : c.k, ac = c.ta == 'N' ? c.k : c.m;
  const std::int64_t br = c.tb == 'N' ? c.k : c.n, bc = c.tb == 'N' ? c.n : c.k;
  const std::int64_t shift = c.skew ? c.nb : 0;
  const Descriptor da = descriptor(ar + shift, ac, c.nb, c.nb, P, pos.my_row);
  const Descriptor db = descriptor(br, bc, c.nb, c.nb, P, pos.my_row),
                   dc = descriptor(c.m, c.n, c.nb, c.nb, P, pos.my_row);
  const Op a_op = c.ta == 'N' ? Op::none : Op::transpose, b_op = c.tb == 'N' ? Op::none : Op::transpose;
  const CallShape sh{c.ta, c.tb, a_op, b_op, c.m, c.n, c.k, da, db, dc, P, Q, pos.my_row, pos.my_col};
  const int desc[9] = {1, 0, 1, 1, 1, 1, 0, 0, 1};  // not read by decide
  const int m = static_cast<int>(c.m), n = static_cast<int>(c.n), k = static_cast<int>(c.k);
  const int ia = static_cast<int>(1 + shift);
  const PdgemmCall call{hympi::summa::element<double>(),
                        c.ta,
                        c.tb,
                        m,
                        n,
                        k,
                        &one,
                        nullptr,
                        ia,
                        1,
                        desc,
                        nullptr,
                        1,
                        1,
                        desc,
                        &zero,
                        nullptr,
                        1,
                        1,
                        desc};
  const auto [I, J] = s.groups_on(P, Q);

  s.engine = EngineChoice::direct;
  const Plan d = decide(call, sh, s, grid);
  check(d.route == Route::block_cyclic, what + ": engine=direct takes the block-cyclic route");
  if (d.route == Route::block_cyclic) {
    const BlockCyclicPlan& p = d.direct;
    check(p.panels.I == I && p.panels.J == J && p.panels.b == s.block,
          what + ": block-cyclic panels " + std::to_string(p.panels.I) + "x" + std::to_string(p.panels.J) +
              " b=" + std::to_string(p.panels.b) + " are the settings'");
    check(p.chunks.width >= 1 && p.chunks.width <= p.panels.b,
          what + ": widest k chunk " + std::to_string(p.chunks.width) + " <= b");
    if (c.ta != 'N') check(p.stage_a, what + ": a transposed A is staged");
    if (c.tb != 'N') check(p.stage_b, what + ": a transposed B is staged");
    if (p.stage_a) check(p.staged.a_cols == k_axis(c.k, widest_block(s), Q), what + ": staged A's k blocks");
    if (p.stage_b) check(p.staged.b_rows == k_axis(c.k, widest_block(s), P), what + ": staged B's k blocks");
  }

  s.engine = EngineChoice::redistribute;
  const Plan r = decide(call, sh, s, grid);
  check(r.route == Route::checkerboard, what + ": engine=redistribute takes the checkerboard route");
  if (r.route == Route::checkerboard && r.checkerboard.engine) {
    const CheckerboardPlan& p = r.checkerboard;
    const PanelPlan& pp = p.engine->panels;
    check(pp.I == I && pp.J == J && pp.b == s.block && pp.M == s.outer_for(s.block),
          what + ": the engine's panels are the settings' (as the block-cyclic route's)");
    const EngineOptions& o = p.engine_options;
    check(o.m == c.m && o.n == c.n && o.k == c.k && o.b == pp.b && o.M == pp.M,
          what + ": the engine is built with the key's sizes and panels");
    Engine& engine = grid.engine(*p.engine, o);
    check(same_block(engine.a_block(), p.blocks.a) && same_block(engine.b_block(), p.blocks.b) &&
              same_block(engine.c_block(), p.blocks.c),
          what + ": the plan's checkerboard layout is the engine's");
    check(engine.grid().shape().I == pp.I && engine.grid().shape().J == pp.J, what + ": the engine's groups");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = hympi::test::world_rank(), size = hympi::test::world_size();
  long long clock = 0;
  const Case cases[] = {{'N', 'N', 37, 29, 53, 4, false},
                        {'T', 'N', 41, 23, 70, 8, false},
                        {'N', 'T', 30, 31, 64, 5, true},
                        {'T', 'T', 19, 26, 45, 3, false}};
  for (int P = 1; P <= size; ++P) {
    if (size % P) continue;
    const int Q = size / P;
    GridEntry grid(MPI_COMM_WORLD, P, Q, rank / Q, rank % Q, clock);
    for (const Case& c : cases)
      for (const auto& [block, groups] : {std::pair{16, "2x2"}, std::pair{7, "1x3"}, std::pair{64, "1x1"}}) {
        Settings s;
        check(s.set("block", std::to_string(block)).empty() && s.set("groups", groups).empty() &&
                  s.set("outer", std::to_string(2 * block)).empty(),
              "settings");
        check_case(grid, c, s,
                   std::to_string(P) + "x" + std::to_string(Q) + " " + c.ta + c.tb + " block=" + std::to_string(block) +
                       " groups=" + groups);
      }
  }
  const int rc = hympi::test::finish("scalapack plan_test");
  MPI_Finalize();
  return rc;
}
