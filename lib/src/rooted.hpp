// Private: the one registration point of the core's rooted data-movement
// collectives, those of MPI_Gather_init's and MPI_Scatter_init's shape
// (count, datatype, root, comm, info). A row of HYMPI_ROOTED_COLLECTIVES gives a
// collective its C init hympi_<name>_init and Fortran bridge hympi_<name>_init_f
// (c_api/persistent.cpp), its agreement and grouped dispatch (rooted.cpp) and its
// slot and result sizes (the C request's counts); its C++ face is
// hympi::<Class>::create (collectives.hpp) and its algorithm a class in rooted.cpp
// (flat: PureRooted, HybridRooted) and grouped/rooted.cpp (the grouped form).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "agreement.hpp"
#include "hympi/collectives.hpp"

// X(name, Class, Kind, shape): hympi_<name>_init, hympi::<Class>, RootedKind::<Kind>,
// and its RootedShape's four flags (below): who writes and reads the whole buffer.
#define HYMPI_ROOTED_COLLECTIVES(X) \
  X(gather, Gather, gather, (false, true, true, false))  \
  X(scatter, Scatter, scatter, (true, false, false, true))

namespace hympi::detail {

enum class RootedKind {
#define HYMPI_ROOTED_KIND(name, Class, Kind, shape) Kind,
  HYMPI_ROOTED_COLLECTIVES(HYMPI_ROOTED_KIND)
#undef HYMPI_ROOTED_KIND
};

// What a row fixes besides its name: which side holds the whole buffer (size() *
// count elements: the root's result for a gather, the root's slot for a scatter)
// and which holds one rank's part.
struct RootedShape {
  const char* name;       // "gather": messages, "hympi_gather_init"
  bool root_slot_whole;   // scatter: the root writes every rank's part
  bool root_result_whole; // gather: the root reads every rank's part
  bool others_slot;       // gather: every rank writes its part
  bool others_result;     // scatter: every rank reads its part
};
const RootedShape& rooted_shape(RootedKind kind);
// Elements of this rank's slot and result.
std::int64_t rooted_slot_count(RootedKind kind, bool is_root, int size, std::int64_t count);
std::int64_t rooted_result_count(RootedKind kind, bool is_root, int size, std::int64_t count);

// Adds the checks and values of root, count and element size and the options to
// `agreement` (the same items for every kind and value), runs it over topo.comm(),
// then builds the flat (pure or hybrid) or grouped object.
std::unique_ptr<PersistentCollective> create_rooted(RootedKind kind, const Topology& topo, int root,
                                                    std::int64_t count, std::size_t elem_size,
                                                    const CollectiveOptions& options, Agreement& agreement);

}  // namespace hympi::detail
