#include "grid_cache.hpp"

#include <numeric>
#include <utility>

#include "auto_plan.hpp"
#include "hympi/blacs.h"
#include "hympi/error.hpp"

namespace hympi::hsumma::scalapack {

namespace {

constexpr std::size_t max_engines = 4;  // per grid: alternating shapes rebuild nothing

MPI_Comm context_comm(int ctxt) {
  int handle = -1;
  Cblacs_get(ctxt, 10, &handle);  // 10: the system handle of the context's own communicator
  return Cblacs2sys_handle(handle);
}

}  // namespace

GridEntry::GridEntry(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol)
    : pos_{MPI_COMM_NULL, nprow, npcol, myrow, mycol} {
  HYMPI_CHECK_MPI(MPI_Comm_split(pscp, 0, myrow * npcol + mycol, &pos_.comm));
}

GridEntry::~GridEntry() {
  engines_.clear();  // the engines' communicators derive from pos_.comm
  lines_.reset();
  MPI_Comm_free(&pos_.comm);
}

bool GridEntry::matches(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol) const {
  if (nprow != pos_.rows || npcol != pos_.cols || myrow != pos_.my_row || mycol != pos_.my_col) return false;
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(pos_.comm, pscp, &result);
  return result == MPI_CONGRUENT || result == MPI_IDENT;
}

Engine& GridEntry::engine(const EngineKey& key) {
  for (auto it = engines_.begin(); it != engines_.end(); ++it)
    if (it->first == key) {
      engines_.splice(engines_.begin(), engines_, it);
      return *engines_.front().second;
    }
  if (engines_.size() >= max_engines) engines_.pop_back();
  const Settings& s = key.settings;
  EngineOptions o = engine_options(s);
  o.m = key.m, o.n = key.n, o.k = key.k;
  // Groups that do not divide the grid shrink to the largest that do.
  AutoPlan plan{std::gcd(s.group_rows, pos_.rows), std::gcd(s.group_cols, pos_.cols), s.block, s.outer_for(s.block)};
  if (s.auto_groups() || s.auto_block()) plan = auto_plan(pos_, key.m, key.n, key.k, s);
  const auto [I, J, b, M] = plan;
  o.b = b, o.M = M;
  const TwoLevelShape shape{pos_.rows, pos_.cols, I, J, GridOrder::row_major, false};
  engines_.emplace_front(key, std::make_unique<Engine>(pos_.comm, shape, o));
  return *engines_.front().second;
}

AutoPlan GridEntry::block_cyclic_auto_plan(const EngineKey& key) {
  for (const auto& [k, plan] : block_cyclic_auto_plans_)
    if (k == key) return plan;
  Settings chunked = key.settings;  // the block-cyclic route's panels: M = b
  chunked.outer = 0;
  const AutoPlan plan = auto_plan(pos_, key.m, key.n, key.k, chunked, *key.elem);
  if (block_cyclic_auto_plans_.size() >= 16) block_cyclic_auto_plans_.pop_back();
  block_cyclic_auto_plans_.emplace_front(key, plan);
  return plan;
}

PanelLines& GridEntry::lines() {
  if (!lines_) lines_ = std::make_unique<PanelLines>(pos_);
  return *lines_;
}

GridEntry& GridCache::of(int ctxt, int nprow, int npcol, int myrow, int mycol) {
  const MPI_Comm pscp = context_comm(ctxt);
  auto& slot = grids_[ctxt];
  // A stale entry (its context was freed without blacs_gridexit passing here)
  // belongs to another set of ranks: it is dropped, not freed, since freeing
  // is collective over ranks that may never call again.
  if (slot && !slot->matches(pscp, nprow, npcol, myrow, mycol)) static_cast<void>(slot.release());
  if (!slot) slot = std::make_unique<GridEntry>(pscp, nprow, npcol, myrow, mycol);
  return *slot;
}

void GridCache::release(int ctxt) {
  const auto it = grids_.find(ctxt);
  if (it == grids_.end()) return;
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  if (nprow < 1 || !it->second->matches(context_comm(ctxt), nprow, npcol, myrow, mycol))
    static_cast<void>(it->second.release());  // stale: see of()
  grids_.erase(it);
}

GridCache& GridCache::instance() {
  static GridCache* cache = new GridCache;  // never destroyed: MPI is gone at exit
  return *cache;
}

}  // namespace hympi::hsumma::scalapack
