// The drop-in pdgemm decides once (pdgemm_call.hpp): which route a call takes,
// decided alike on every rank of its grid, and everything that route needs to
// run (a Plan). The routes: pass the call on (invalid), scale C only, SUMMA on
// the caller's block-cyclic arrays (block_cyclic_summa.hpp), or the engine on
// its block checkerboard. The run paths (pdgemm_call.cpp) execute the plan and
// choose nothing; the grid cache keys engines on it.
#pragma once
#include <optional>

#include "auto_plan.hpp"
#include "block_cyclic_plan.hpp"
#include "call_shape.hpp"
#include "grid_cache.hpp"
#include "hympi/hsumma/distribution.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

// How a call runs; every rank of the grid reaches the same route.
enum class Route {
  invalid,       // pass it on: ScaLAPACK reports the error
  scale_only,    // nothing to multiply: C = beta * C
  block_cyclic,  // SUMMA on the caller's arrays (block_cyclic_summa.hpp), staging what is unaligned
  checkerboard,  // the engine on its block checkerboard, redistributing what differs
};

// The block-cyclic route's plan: which operands are staged and their staged
// layouts (block_cyclic_plan.hpp), the k chunks (no wider than the panels' b)
// and the broadcast groups.
struct BlockCyclicPlan {
  bool stage_a = false, stage_b = false;
  StagedLayouts staged;  // used for the staged operands only
  ChunkPlan chunks;
  PanelPlan panels;  // I x J groups, b (M = b: the panels are the chunks)
};

// The checkerboard route's plan: the engine's layout of A, B and C
// (checkerboard_blocks) as axes and local blocks, which operands already lie
// so (read and written in place), and the engine to run: its cache key and
// the options it is built with.
struct CheckerboardPlan {
  Axis a_rows, a_cols, b_rows, b_cols;  // C: a_rows x b_cols
  CheckerboardBlocks blocks;
  bool a_in_place = false, b_in_place = false, c_in_place = false;
  std::optional<EngineKey> engine;
  EngineOptions engine_options;
};

struct Plan {
  Route route = Route::invalid;
  std::optional<CallerMatrix> A, B, C;  // C unless invalid; A and B when multiplying
  EngineOptions options;                // the broadcasts' setup (policy, sync, lookahead, node layout)
  BlockCyclicPlan direct;               // route block_cyclic
  CheckerboardPlan checkerboard;        // route checkerboard
};

// Decides the route and plans it: argument checks (rank-local ones agreed over
// the grid), the layouts of A, B and C, the staging, chunks and panels (the
// model's under groups=auto / block=auto, remembered by the grid). Collective
// over the grid (one allreduce; the model's measurements on first use of a shape).
Plan decide(const PdgemmCall& call, const CallShape& sh, const Settings& s, GridEntry& grid);

}  // namespace hympi::hsumma::scalapack
