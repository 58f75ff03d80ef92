#include "grid_cache.hpp"

#include <algorithm>
#include <utility>

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

GridEntry::GridEntry(MPI_Comm pscp, int nprow, int npcol, int myrow, int mycol, long long& clock)
    : pos_{MPI_COMM_NULL, nprow, npcol, myrow, mycol} {
  HYMPI_CHECK_MPI(MPI_Comm_split(pscp, 0, myrow * npcol + mycol, &pos_.comm));
  int world_rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  long long id[2] = {clock + 1, -static_cast<long long>(world_rank)};  // max: the clock, the lowest rank
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, id, 2, MPI_LONG_LONG, MPI_MAX, pos_.comm));
  clock = id[0];
  id_ = {id[0], -id[1]};
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

Engine& GridEntry::engine(const EngineKey& key, const EngineOptions& o) {
  for (auto it = engines_.begin(); it != engines_.end(); ++it)
    if (it->first == key) {
      engines_.splice(engines_.begin(), engines_, it);
      return *engines_.front().second;
    }
  if (engines_.size() >= max_engines) engines_.pop_back();
  const TwoLevelShape shape{pos_.rows, pos_.cols, key.panels.I, key.panels.J, GridOrder::row_major, false};
  engines_.emplace_front(key, std::make_unique<Engine>(pos_.comm, shape, o));
  return *engines_.front().second;
}

PanelLines& GridEntry::lines() {
  if (!lines_) lines_ = std::make_unique<PanelLines>(pos_);
  return *lines_;
}

GridEntry& GridCache::of(int ctxt, int nprow, int npcol, int myrow, int mycol) {
  const MPI_Comm pscp = context_comm(ctxt);
  auto& slot = grids_[ctxt];
  // A stale entry (its context was freed without blacs_gridexit passing here,
  // and the number reused for another grid) is retired like a left one.
  if (slot && !slot->matches(pscp, nprow, npcol, myrow, mycol)) retired_.push_back(std::move(slot));
  if (!slot) {
    slot = std::make_unique<GridEntry>(pscp, nprow, npcol, myrow, mycol, clock_);
    // Every rank of the new grid is here: free the left grids all of whose ranks are too.
    retired_ = free_agreed(slot->pos().comm, std::move(retired_));
  }
  return *slot;
}

void GridCache::retire(int ctxt) {
  const auto it = grids_.find(ctxt);
  if (it == grids_.end()) return;
  if (it->second) retired_.push_back(std::move(it->second));
  grids_.erase(it);
}

void GridCache::free_all() {
  Entries all = std::move(retired_);
  for (auto& entry : grids_)
    if (entry.second) all.push_back(std::move(entry.second));
  grids_.clear();
  retired_ = free_agreed(MPI_COMM_WORLD, std::move(all));
}

namespace {

// Whether every rank of `comm` passes the same ids (`mine`, sorted): two reductions of the
// list's length, then of its items, so the common case (every rank holds the same grids, as
// at MPI_Finalize) needs no gather of everyone's ids: 24 bytes x p a rank, 6 GB at 16384
// simulated ranks on one host (issue 51).
bool same_everywhere(MPI_Comm comm, const std::vector<long long>& mine) {
  long long length[2] = {static_cast<long long>(mine.size()), -static_cast<long long>(mine.size())};
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, length, 2, MPI_LONG_LONG, MPI_MAX, comm));
  if (length[0] != -length[1]) return false;
  if (mine.empty()) return true;
  std::vector<long long> bounds(mine);  // the largest item, then minus the smallest, per place
  for (const long long id : mine) bounds.push_back(-id);
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, bounds.data(), static_cast<int>(bounds.size()), MPI_LONG_LONG, MPI_MAX,
                                comm));
  for (std::size_t i = 0; i < mine.size(); ++i)
    if (bounds[i] != mine[i] || -bounds[mine.size() + i] != mine[i]) return false;
  return true;
}

}  // namespace

GridCache::Entries GridCache::free_agreed(MPI_Comm comm, Entries entries) {
  int ranks = 0;
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &ranks));
  // The same decision and order on every rank of each entry: all of them see every id.
  std::sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) { return x->id() < y->id(); });
  std::vector<long long> mine;
  for (const auto& entry : entries) mine.insert(mine.end(), {entry->id().first, entry->id().second});
  std::map<GridId, int> holders;  // how many ranks of `comm` passed each entry
  if (same_everywhere(comm, mine)) {
    for (const auto& entry : entries) holders[entry->id()] = ranks;
  } else {
    const int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks));
    HYMPI_CHECK_MPI(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm));
    int total = 0;
    for (int r = 0; r < ranks; ++r)
      offsets[static_cast<std::size_t>(r)] = total, total += counts[static_cast<std::size_t>(r)];
    std::vector<long long> all(static_cast<std::size_t>(total));
    HYMPI_CHECK_MPI(MPI_Allgatherv(mine.data(), count, MPI_LONG_LONG, all.data(), counts.data(), offsets.data(),
                                   MPI_LONG_LONG, comm));
    for (std::size_t i = 0; i + 1 < all.size(); i += 2) ++holders[{all[i], all[i + 1]}];
  }
  Entries kept;
  for (auto& entry : entries) {
    if (holders[entry->id()] == entry->ranks())
      entry.reset();  // collective over its grid, whose ranks all free it now
    else
      kept.push_back(std::move(entry));
  }
  return kept;
}

GridCache& GridCache::instance() {
  static GridCache* cache = new GridCache;  // never destroyed: MPI is gone at exit
  return *cache;
}

}  // namespace hympi::hsumma::scalapack
