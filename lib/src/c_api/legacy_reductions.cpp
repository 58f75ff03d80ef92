// The C face of the reductions (hympi/reduce.hpp): thin wrappers, errors as codes.
#include "c_api/support.hpp"
#include "hympi.h"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"

struct hympi_allreduce_s {
  std::unique_ptr<hympi::Allreduce> impl;
};
struct hympi_reduce_s {
  std::unique_ptr<hympi::Reduce> impl;
};

namespace {

using hympi::c_api::create_handle;
using hympi::c_api::free_handle;
using hympi::c_api::guarded;
using hympi::c_api::require_handle;

// A reduction create's C-only fields (leaders, deterministic) go into the options
// with the other agreed checks; the rest (count, type, op, root, leaders' range)
// the C++ create checks and agrees itself.
auto reduction_fields(int leaders, int deterministic) {
  return [=](hympi::CollectiveOptions& options) {
    options.leaders = leaders;
    options.deterministic = deterministic != 0;
  };
}

// What a reduction handle H (allreduce, reduce) offers beyond its create.
template <class H>
void* slot_of(H h) {
  return h ? h->impl->slot() : nullptr;
}
template <class H>
const void* result_of(H h) {
  return h ? h->impl->result() : nullptr;
}
template <class H>
size_t bytes_per_node_of(H h) {
  return h ? h->impl->bytes_per_node() : 0;
}
template <class H>
int run_of(H h, const char* what) {
  return guarded([&] {
    require_handle(h, what);
    h->impl->run();
  });
}

}  // namespace

// The accessors of hympi_<name>_t, one definition for both reductions:
// hympi_<name>_slot, _run, _result, _bytes_per_node, _free.
#define HYMPI_REDUCTION_ACCESSORS(name)                      \
  void* hympi_##name##_slot(hympi_##name##_t h) {            \
    return slot_of(h);                                       \
  }                                                          \
  int hympi_##name##_run(hympi_##name##_t h) {               \
    return run_of(h, #name " handle");                       \
  }                                                          \
  const void* hympi_##name##_result(hympi_##name##_t h) {    \
    return result_of(h);                                     \
  }                                                          \
  size_t hympi_##name##_bytes_per_node(hympi_##name##_t h) { \
    return bytes_per_node_of(h);                             \
  }                                                          \
  int hympi_##name##_free(hympi_##name##_t* h) {             \
    return free_handle(h);                                   \
  }

extern "C" {

int hympi_allreduce_create_ex(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int policy, int sync,
                              int leaders, int deterministic, hympi_allreduce_t* out) {
  return create_handle(comm, policy, sync, out, reduction_fields(leaders, deterministic),
                       [&](const hympi::Topology& topo, const hympi::CollectiveOptions& options) {
                         return new hympi_allreduce_s{hympi::Allreduce::create(topo, count, type, op, options)};
                       });
}
int hympi_allreduce_create(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int policy, int sync,
                           hympi_allreduce_t* out) {
  return hympi_allreduce_create_ex(comm, count, type, op, policy, sync, 0, 0, out);
}
HYMPI_REDUCTION_ACCESSORS(allreduce)

int hympi_reduce_create_ex(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int root, int policy, int sync,
                           int leaders, int deterministic, hympi_reduce_t* out) {
  return create_handle(comm, policy, sync, out, reduction_fields(leaders, deterministic),
                       [&](const hympi::Topology& topo, const hympi::CollectiveOptions& options) {
                         return new hympi_reduce_s{hympi::Reduce::create(topo, count, type, op, root, options)};
                       });
}
int hympi_reduce_create(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int root, int policy, int sync,
                        hympi_reduce_t* out) {
  return hympi_reduce_create_ex(comm, count, type, op, root, policy, sync, 0, 0, out);
}
HYMPI_REDUCTION_ACCESSORS(reduce)

}  // extern "C"
