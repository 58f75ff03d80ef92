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
  // The two operands are mirror images along k: A's k runs along its columns and
  // over grid columns, B's along its rows and over grid rows. One Side per operand
  // holds what differs, so every panel function is written once.
  enum Operand { kA = 0, kB = 1 };
  struct Side {
    bool k_along_cols = true;             // A: true, B: false
    bool direct = false;                  // hybrid: panels read from the owners' node-shared blocks
    BlockCyclic1D k_split;                // how k splits over grid columns (A) / rows (B)
    std::int64_t first = 0;               // first k index of my block
    std::int64_t ld = 1;                  // leading dimension of my block
    std::int64_t across = 0;              // my extent across k: local rows of A / local columns of B
    std::unique_ptr<Bcast> outer, inner;  // null when that communicator has one rank
    // Offset of k index +dk in a column-major block of leading dimension `lead`.
    std::int64_t k_offset(std::int64_t dk, std::int64_t lead) const { return k_along_cols ? dk * lead : dk; }
    // Leading dimension of a packed panel `width` wide along k.
    std::int64_t packed_ld(std::int64_t width) const { return k_along_cols ? across : width; }
  };
  class Pipeline;  // the panels in flight during one multiply (engine.cpp)

  int owner(Operand op, const PanelStep& step) const;  // grid column (A) / row (B) holding the panel
  int my_position(Operand op) const;                   // my grid column (A) / row (B)
  int group_extent(Operand op) const;                  // grid columns (A) / rows (B) per group
  int my_position_in_group(Operand op) const;
  Pending outer_panel(Operand op, const PanelStep& step, const double* block);
  Pending inner_panel(Operand op, const PanelStep& outer, const PanelStep& step, Panel panel);
  Pending send(Operand op, Bcast* bc, int root, bool is_root, const double* local, std::int64_t ld, std::int64_t width,
               std::int64_t& counter);
  Pending broadcast(Bcast& bc, int root, std::int64_t count, std::int64_t ld, const double* direct);
  Panel finish(Pending& pending);
  void update(Panel a, Panel b, std::int64_t width, double* C, std::int64_t c_ld);
  double node_sync_seconds() const;
  template <class F>
  void for_each_bcast(F f) const;

  MPI_Comm comm_;
  EngineOptions options_;
  std::unique_ptr<TwoLevelGrid> grid_;
  std::vector<OuterStep> schedule_;
  Side side_[2];
  std::unique_ptr<SharedInputs> shared_;
  Timings* t_ = nullptr;
};

// The broadcast object of one line of panels (a grid row or column, `comm`) with
// room for `capacity` doubles, under options.bcast (policy, sync), options.layout
// and options.lookahead (overlap); null when `comm` has one rank (nobody to send
// to: the panel is read in place). Collective over `comm`. Shared with the
// drop-in pdgemm's direct engine.
std::unique_ptr<Bcast> make_panel_bcast(MPI_Comm comm, std::int64_t capacity, const EngineOptions& options);

// Checks the engine arguments; throws hympi::Error naming the first problem.
void validate(const TwoLevelShape& shape, int comm_size, const EngineOptions& options);

}  // namespace hympi::hsumma
