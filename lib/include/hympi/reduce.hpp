// Reductions with the collectives' persistent model (write slot(), run(), read
// result()) and the same two policies:
//  * pure   - MPI_Allreduce / MPI_Reduce into private copies;
//  * hybrid - every rank writes its vector into its node slot; the node's ranks
//             reduce disjoint slices of the node's contributions in parallel by
//             load/store; each slice is allreduced across nodes (one leader per
//             node for small vectors, several slice owners over their own bridge
//             communicators for large ones: options.leaders); the result lands
//             once per node and every node rank reads it.
// Datatypes: every predefined type (MPI_Type_create_f90_* ones included) and
// contiguous derived types of one (MPI_Type_contiguous / MPI_Type_dup, nested);
// others (vector, struct, resized, ...) fail with ErrorCode::unsupported. Ops: any
// commutative MPI_Op. A predefined op must be defined for the (basic) type by MPI
// 4.1, 6.9.2 (MPI_SUM on complex, MPI_MINLOC on pair types, MPI_LAND on C
// integers and logicals, MPI_BAND on MPI_BYTE, ...; MPI_REPLACE / MPI_NO_OP are
// one-sided only); on a contiguous type it reduces the basic elements one by one
// (an extension: MPI's collectives define predefined ops on predefined types
// only). A user op (MPI_Op_create, commute = 1) is called, as by MPI, with the
// caller's datatype and a count of whole elements of it. A derived type must stay
// committed until the object is destroyed. options.deterministic gives the same
// bits for any placement and rank count (combination in communicator-rank order).
// Results stay valid until this rank's next run() (double-buffered node copy, as
// in Allgatherv).
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "hympi/collectives.hpp"

namespace hympi {

class Topology;

// A PersistentCollective (persistent.hpp): slot() holds this rank's count()
// elements, result() the count() reduced elements.
class Allreduce : public PersistentCollective {
 public:

  // Collective over topo.comm(). count elements of `type` per rank, combined by
  // `op`. count, type and op must agree on every rank (checked: the same error on
  // every rank otherwise).
  static std::unique_ptr<Allreduce> create(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op,
                                           CollectiveOptions options);

  // Nonblocking, same rules as Allgatherv::start/test/wait (one reduction in
  // flight; slot() not written and result() not read until test() said true or
  // wait() returned). Pure: MPI_Iallreduce. Hybrid: the node's ranks combine
  // their shares in whichever test()/wait() finds the node arrived, then the
  // slice owners' MPI_Iallreduce on their bridges. Deterministic: blocking.

  std::int64_t count() const { return count_; }
  MPI_Datatype type() const { return type_; }
  MPI_Op op() const { return op_; }
  CollectiveOptions options() const { return options_; }

 protected:
  std::int64_t count_ = 0;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
  CollectiveOptions options_;
  std::shared_ptr<const Topology> topology_owner_;  // destroyed last
};

// A PersistentCollective: slot() holds this rank's count() elements; result() is
// the count() reduced elements on the root, nullptr elsewhere.
class Reduce : public PersistentCollective {
 public:

  // Collective over topo.comm(); `root` (any rank of topo.comm()) gets the result.
  // count, type, op and root must agree on every rank (checked).
  static std::unique_ptr<Reduce> create(const Topology& topo, std::int64_t count, MPI_Datatype type, MPI_Op op,
                                        int root, CollectiveOptions options);

  // Nonblocking, same rules as Allreduce::start/test/wait. Pure: MPI_Ireduce.
  // Hybrid: the node combines its shares, the slice owners' MPI_Ireduce carry
  // them to the root's node. Deterministic: blocking.

  std::int64_t count() const { return count_; }
  int root() const { return root_; }
  MPI_Datatype type() const { return type_; }
  MPI_Op op() const { return op_; }
  CollectiveOptions options() const { return options_; }

 protected:
  std::int64_t count_ = 0;
  int root_ = 0;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
  CollectiveOptions options_;
  std::shared_ptr<const Topology> topology_owner_;  // destroyed last
};

}  // namespace hympi
