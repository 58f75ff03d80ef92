// Internal: the one reduction algorithm behind Allreduce and Reduce. A root of
// kEveryRank means every rank gets the result; otherwise only the root's node is sure to
// hold it. Three forms, chosen by the options:
//  * pure            - MPI_Allreduce / MPI_Reduce between private buffers;
//  * hybrid          - node slots in a shared window, node ranks reduce disjoint
//                      slices by load/store, slice owners allreduce their piece
//                      over their bridge (one or several leaders per node);
//  * deterministic   - an Allgatherv of the chosen policy, then every element is
//                      combined in communicator-rank order (node ranks share the
//                      work under hybrid): the same bits for any layout and policy.
#pragma once
#include <cstddef>
#include <memory>

#include "hympi/collectives.hpp"
#include "hympi/persistent.hpp"
#include "reduction/args.hpp"

namespace hympi::detail {

// result(): on ranks that hold it (all for an allreduce, the root's node for a
// reduce). start/test/wait default to the blocking run() (the deterministic form).
class ReductionEngine : public PersistentCollective {
 public:
  // Collective over topo.comm(); `args` come from check_reduction_args.
  static std::unique_ptr<ReductionEngine> create(const Topology& topo, const ReductionArgs& args,
                                                 const CollectiveOptions& options);
};

// The three forms (reduction/pure.cpp, hybrid.cpp, ordered.cpp).
std::unique_ptr<ReductionEngine> make_pure_reduction(const Topology& topo, const ReductionArgs& args);
std::unique_ptr<ReductionEngine> make_hybrid_reduction(const Topology& topo, const ReductionArgs& args,
                                                       const CollectiveOptions& options);
std::unique_ptr<ReductionEngine> make_ordered_reduction(const Topology& topo, const ReductionArgs& args,
                                                        const CollectiveOptions& options);

}  // namespace hympi::detail
