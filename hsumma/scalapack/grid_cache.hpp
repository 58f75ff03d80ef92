// Per BLACS context: a communicator ordered like the grid (rank = row * Q + col)
// and the engines built on it for recent shapes (a few, least recently used
// evicted). Everything here is collective over the grid, and every rank of the
// grid sees the same sequence of pdgemm calls, so creations and evictions match.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <list>
#include <map>
#include <memory>

#include "auto_plan.hpp"
#include "block_cyclic_summa.hpp"
#include "hympi/hsumma/engine.hpp"
#include "redistribute.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

struct EngineKey {
  std::int64_t m, n, k;
  Settings settings;
  const summa::Element* elem = &summa::element<double>();  // plans are per precision
  bool operator==(const EngineKey& o) const {
    return m == o.m && n == o.n && k == o.k && settings == o.settings && elem == o.elem;
  }
};

class GridEntry {
 public:
  // Collective over the grid of `pscp` (the BLACS context's communicator).
  GridEntry(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol);
  ~GridEntry();  // collective over the grid
  GridEntry(const GridEntry&) = delete;
  GridEntry& operator=(const GridEntry&) = delete;

  const GridPos& pos() const { return pos_; }
  // Still the grid of this context? (BLACS reuses context numbers.) Local.
  bool matches(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol) const;
  // The engine for this shape and settings, built on first use. Collective.
  Engine& engine(const EngineKey& key);
  // The row and column panel lines of the block-cyclic route, built on first use. Collective.
  PanelLines& lines();
  // groups=auto / block=auto for the block-cyclic route (its panels: M = b): the
  // model's groups and b for this shape, remembered. Collective on first use of a key.
  AutoPlan block_cyclic_auto_plan(const EngineKey& key);

 private:
  GridPos pos_;
  std::list<std::pair<EngineKey, AutoPlan>> block_cyclic_auto_plans_;  // most recent first
  std::list<std::pair<EngineKey, std::unique_ptr<Engine>>> engines_;   // most recent first
  std::unique_ptr<PanelLines> lines_;
};

class GridCache {
 public:
  // The entry of a BLACS context, (re)built when missing or stale. Collective
  // over the grid when it builds.
  GridEntry& of(int ctxt, int nprow, int npcol, int myrow, int mycol);
  // Frees a context's entry (collective over its grid: called from blacs_gridexit).
  void release(int ctxt);
  // Entries held (hympi_pdgemm_cached_grids).
  int size() const { return static_cast<int>(grids_.size()); }
  static GridCache& instance();

 private:
  std::map<int, std::unique_ptr<GridEntry>> grids_;
};

}  // namespace hympi::hsumma::scalapack
