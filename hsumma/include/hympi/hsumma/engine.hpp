// The one SUMMA/HSUMMA engine: C = A * B (double) on a P x Q grid split into
// I x J groups (Hasanov's hierarchical SUMMA). Outer panels of width <= M are
// broadcast between groups (outer row/column communicators), then cut into inner
// panels of width <= b broadcast inside each group; every rank updates its block
// of C with cblas_dgemm per inner panel. SUMMA is the case I = J = 1.
//
// All panel traffic goes through hympi::Bcast, so the broadcast policy (pure:
// MPI_Bcast into private panels; hybrid: one panel copy per node) is one switch.
// A communicator of one rank needs no broadcast: the panel is read in place.
// Hybrid, a grid row (column) that lies inside one node needs none either: its
// ranks read the A (B) panels straight from the owner's block, which every
// multiply publishes once in a node-shared window (shared_inputs.hpp).
//
// The step loop and its lookahead are SUMMA's (summa/panel_pipeline.hpp); this
// engine is its panel source for the block checkerboard (checkerboard_panels.hpp).
// Lookahead 1 (EngineOptions::lookahead) gives the same arithmetic in the same
// order: the result is bit-identical to no lookahead.
//
// Local storage is column-major with leading dimension max(1, local rows), in the
// block-checkerboard distribution of distribution.hpp:
//   A: m x k, rows over P, columns over Q;  B: k x n, rows over P, columns over Q;
//   C: m x n, rows over P, columns over Q.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/grid.hpp"
#include "hympi/hsumma/distribution.hpp"
#include "hympi/layout.hpp"

namespace hympi::hsumma {

class CheckerboardPanels;

struct EngineOptions {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t b = 64;  // inner block (panel width inside a group)
  std::int64_t M = 64;  // outer block (panel width between groups); M % b == 0
  CollectiveOptions bcast;
  LayoutSpec layout;       // node layout for the broadcast topologies (emulated or real)
  bool lookahead = false;  // overlap the next panels' broadcasts with the current update
  // Hybrid: publish A and B blocks in a node window (2 generations: 2x the local
  // input memory) so rows/columns inside a node read panels directly.
  bool share_inputs = true;
  // Run only the first this-many outer steps of the schedule (0 = all). C is then
  // incomplete: for timing the steps of a problem too big to simulate whole (the
  // steps are alike, so time scales with their number).
  std::int64_t max_outer_steps = 0;
};

// Seconds spent by this rank in one multiply(), and how many broadcasts it joined.
// With lookahead, bcast is the communication time left exposed (start + wait).
struct Timings {
  double total = 0;  // whole multiply, from entry to the end of the closing barrier
  double bcast = 0;  // panel packing + broadcast calls, node synchronization excluded
  double dgemm = 0;  // local cblas_dgemm updates
  double sync = 0;   // node synchronization inside hybrid broadcasts + the closing barrier's wait
  std::int64_t outer_bcasts = 0, inner_bcasts = 0;
};

class Engine {
 public:
  // Collective over `comm`. Validates the shape and options (throws hympi::Error
  // naming the problem, identically on every rank), builds the two-level grid and
  // the broadcast objects.
  Engine(MPI_Comm comm, const TwoLevelShape& shape, const EngineOptions& options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // C = A * B. Collective over the grid. Pointers may be null when the local
  // block is empty. Without the closing barrier, back-to-back multiplies
  // pipeline into each other (a caller timing a batch puts one barrier after it).
  Timings multiply(const double* A, const double* B, double* C, bool closing_barrier = true);

  CheckerboardBlocks blocks() const;  // A's, B's and C's local blocks (checkerboard_blocks)
  LocalBlock a_block() const;
  LocalBlock b_block() const;
  LocalBlock c_block() const;
  const TwoLevelGrid& grid() const { return *grid_; }
  const EngineOptions& options() const { return options_; }
  MPI_Comm comm() const { return comm_; }
  const std::vector<OuterStep>& schedule() const { return schedule_; }
  // Bytes of panel memory this rank's node holds for all broadcast objects.
  std::size_t panel_bytes_per_node() const;

 private:
  MPI_Comm comm_;
  EngineOptions options_;
  std::unique_ptr<TwoLevelGrid> grid_;
  std::vector<OuterStep> schedule_;
  std::unique_ptr<CheckerboardPanels> panels_;  // built on grid_, destroyed before it
};

// The broadcast object of one line of panels (a grid row or column, `comm`) with
// room for `capacity` elements of elem_size bytes, under options.bcast (policy, sync), options.layout
// and options.lookahead (overlap); null when `comm` has one rank (nobody to send
// to: the panel is read in place). Collective over `comm`. Shared with the
// drop-in pdgemm's block-cyclic route.
std::unique_ptr<Bcast> make_panel_bcast(MPI_Comm comm, std::int64_t capacity, const EngineOptions& options,
                                        std::size_t elem_size = sizeof(double));

// Checks the engine arguments; throws hympi::Error naming the first problem.
void validate(const TwoLevelShape& shape, int comm_size, const EngineOptions& options);

}  // namespace hympi::hsumma
