// Private helper of the core: an allgatherv's counts checked and agreed on every
// rank (Allgatherv and the grouped allgatherv, grouped/allgatherv.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "agreement.hpp"
#include "hympi/error.hpp"
#include "hympi/rank_map.hpp"
#include "hympi/topology.hpp"

namespace hympi::detail {

// What a set of counts means for the exchange: computed and checked on every rank
// before the object changes, so set_counts() either succeeds everywhere or leaves
// every rank's object exactly as it was.
struct CountPlan {
  std::vector<std::int64_t> counts, displs;
  std::int64_t total = 0;
  std::size_t bytes = 0;  // total * elem_size
};

// The counts' part of an agreement: one non-negative count per rank, each the
// same on every rank (compared exactly, entry by entry).
inline void agree_counts(Agreement& agreement, const Topology& topo, const std::vector<std::int64_t>& counts) {
  const int p = topo.size();
  agreement.check([&] {
    topo.require_comm_alive("allgatherv");
    require(static_cast<int>(counts.size()) == p, "allgatherv needs one non-negative count per rank (" +
                                                      std::to_string(p) + " ranks), got " +
                                                      std::to_string(counts.size()) + " counts");
    for (int r = 0; r < p; ++r)
      require(counts[r] >= 0, "allgatherv needs one non-negative count per rank: count of rank " + std::to_string(r) +
                                  " is negative (" + std::to_string(counts[r]) + ")");
  });
  for (int r = 0; r < p; ++r)
    agreement.same("allgatherv count of rank " + std::to_string(r),
                   static_cast<int>(counts.size()) == p ? counts[r] : 0);
}

// Collective. Every check runs on every rank (also what only leaders use later)
// and all ranks agree before anything is allocated or sent: the counts in one
// agreement round (set_counts; a create agreed them with its other arguments:
// agreed_counts), then `policy_checks`, the checks of one policy and its allocation.
template <class PolicyChecks>
CountPlan plan_counts(const Topology& topo, std::vector<std::int64_t> counts, std::size_t elem_size,
                      bool agreed_counts, PolicyChecks&& policy_checks) {
  if (!agreed_counts) {
    Agreement agreement;
    agree_counts(agreement, topo, counts);
    agreement.run(topo.comm());
  }
  CountPlan plan;
  checked_together(topo.comm(), [&] {
    plan.displs = displacements(counts);
    plan.total = counts.empty() ? 0 : plan.displs.back() + counts.back();
    require(static_cast<std::uint64_t>(plan.total) <= std::numeric_limits<std::size_t>::max() / elem_size,
            "allgatherv total of " + std::to_string(plan.total) + " elements of " + std::to_string(elem_size) +
                " bytes overflows size_t",
            ErrorCode::out_of_memory);
    plan.bytes = static_cast<std::size_t>(plan.total) * elem_size;
    plan.counts = std::move(counts);
    policy_checks(plan);
  });
  return plan;
}

}  // namespace hympi::detail
