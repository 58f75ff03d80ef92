// Per BLACS context: a communicator ordered like the grid (rank = row * Q + col)
// and the engines built on it for recent shapes (a few, least recently used
// evicted). Everything here is collective over the grid, and every rank of the
// grid sees the same sequence of pdgemm calls, so creations and evictions match.
//
// Leaving a grid (blacs_gridexit) is local, as in BLACS: the entry is only
// retired, since freeing it (MPI_Win_free of its node windows) is a barrier
// and the ranks of a grid leave it at different moments and in different
// orders (context numbers are per process). Retired entries are freed at
// points every rank of theirs reaches in one order, after agreeing on which:
// the creation of a new grid (collective over the new grid) frees those whose
// ranks all belong to the new grid and have all left them, and MPI_Finalize
// frees everything. Freed ones go in the order of their ids, the same on every rank.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "auto_plan.hpp"
#include "hympi/hsumma/engine.hpp"
#include "panel_lines.hpp"
#include "redistribute.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

// What an engine is built from: the shape, the settings (broadcast policy,
// sync, lookahead) and the panels the plan chose (pdgemm_route.hpp).
struct EngineKey {
  ShapeKey shape;
  PanelPlan panels;
  bool operator==(const EngineKey& o) const { return shape == o.shape && panels == o.panels; }
};

// Names one grid entry the same on all its ranks and on no other entry: the
// grid's lowest world rank and a clock that grows at every creation that rank
// takes part in (max over the grid's ranks, plus one).
using GridId = std::pair<long long, long long>;  // (clock, lowest world rank)

class GridEntry {
 public:
  // Collective over the grid of `pscp` (the BLACS context's communicator);
  // `clock`: this process's creation clock, advanced.
  GridEntry(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol, long long& clock);
  ~GridEntry();  // collective over the grid
  GridEntry(const GridEntry&) = delete;
  GridEntry& operator=(const GridEntry&) = delete;

  const GridPos& pos() const { return pos_; }
  const GridId& id() const { return id_; }
  int ranks() const { return pos_.rows * pos_.cols; }
  // Still the grid of this context? (BLACS reuses context numbers.) Local.
  bool matches(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol) const;
  // The engine of this key, built with options `o` (sizes and panels as in
  // the key: planned by the caller, nothing is chosen here) on first use. Collective.
  Engine& engine(const EngineKey& key, const EngineOptions& o);
  // The row and column panel lines of the block-cyclic route, built on first use. Collective.
  PanelLines& lines();
  // The model's panel choices on this grid (plan_panels).
  PanelChoices& panel_choices() { return panel_choices_; }

 private:
  GridPos pos_;
  GridId id_;
  PanelChoices panel_choices_;                                        // most recent first
  std::list<std::pair<EngineKey, std::unique_ptr<Engine>>> engines_;  // most recent first
  std::unique_ptr<PanelLines> lines_;
};

class GridCache {
 public:
  // The entry of a BLACS context, (re)built when missing or stale. Collective
  // over the grid when it builds.
  GridEntry& of(int ctxt, int nprow, int npcol, int myrow, int mycol);
  // blacs_gridexit: retires a context's entry. Local (no MPI call).
  void retire(int ctxt);
  // MPI_Finalize (before PMPI_Finalize): frees every entry, live or retired,
  // whose ranks all hold it. Collective over MPI_COMM_WORLD.
  void free_all();
  // Entries of live grids (hympi_pdgemm_cached_grids) and retired ones not yet
  // freed (hympi_pdgemm_retired_grids).
  int size() const { return static_cast<int>(grids_.size()); }
  int retired() const { return static_cast<int>(retired_.size()); }
  static GridCache& instance();

 private:
  using Entries = std::vector<std::unique_ptr<GridEntry>>;
  // Frees those of `entries` that every one of their ranks passes here, in id
  // order; returns the others. Collective over `comm`, which must hold each
  // entry's ranks for it to be freed.
  static Entries free_agreed(MPI_Comm comm, Entries entries);

  std::map<int, std::unique_ptr<GridEntry>> grids_;
  Entries retired_;
  long long clock_ = 0;
};

}  // namespace hympi::hsumma::scalapack
