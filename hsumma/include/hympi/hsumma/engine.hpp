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
// Lookahead 1 (EngineOptions::lookahead): the broadcasts of the next update are
// started before the current dgemm and completed after it (Bcast::start/wait),
// and the next outer panels fly during the whole current outer step. Same
// arithmetic in the same order: the result is bit-identical to no lookahead.
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

class SharedInputs;

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

// Local extent of one distributed matrix on this rank.
struct LocalBlock {
  BlockCyclic1D rows, cols;
  int row_proc = 0, col_proc = 0;
  std::int64_t local_rows() const { return rows.local_size(row_proc); }
  std::int64_t local_cols() const { return cols.local_size(col_proc); }
  std::int64_t ld() const { return local_rows() > 0 ? local_rows() : 1; }
  std::int64_t elements() const { return local_rows() * local_cols(); }
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
  struct Panel {
    const double* data;
    std::int64_t ld;
  };
  // A panel that may still be on its way: `bcast` is non-null while it flies.
  struct Pending {
    Bcast* bcast = nullptr;
    Panel panel{nullptr, 0};
  };
  Pending outer_a(const PanelStep& step, const double* A);
  Pending outer_b(const PanelStep& step, const double* B);
  Pending inner_a(const PanelStep& outer, const PanelStep& step, Panel a);
  Pending inner_b(const PanelStep& outer, const PanelStep& step, Panel b);
  Pending broadcast(Bcast& bc, int root, std::int64_t count, std::int64_t ld, const double* direct);
  Panel finish(Pending& pending);
  void update(Panel a, Panel b, std::int64_t width, double* C, std::int64_t c_ld);
  double node_sync_seconds() const;

  MPI_Comm comm_;
  EngineOptions options_;
  std::unique_ptr<TwoLevelGrid> grid_;
  std::vector<OuterStep> schedule_;
  std::int64_t lm_ = 0, ln_ = 0;            // local rows of A/C, local columns of B/C
  std::int64_t a_first_ = 0, b_first_ = 0;  // first k column of my A block, first k row of my B block
  BlockCyclic1D a_cols_, b_rows_;           // how k splits over grid columns (A) and rows (B)
  std::int64_t a_ld_ = 1, b_ld_ = 1;
  // Null when the communicator has one rank (nothing to broadcast).
  std::unique_ptr<Bcast> outer_row_, outer_col_, inner_row_, inner_col_;
  // Hybrid: my grid row (column) is inside my node, so A (B) panels are read directly.
  bool a_direct_ = false, b_direct_ = false;
  std::unique_ptr<SharedInputs> shared_;
  Timings* t_ = nullptr;
};

// Checks the engine arguments; throws hympi::Error naming the first problem.
void validate(const TwoLevelShape& shape, int comm_size, const EngineOptions& options);

}  // namespace hympi::hsumma
