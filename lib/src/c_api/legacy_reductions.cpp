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

using hympi::c_api::guarded;
using hympi::c_api::require_handle;

// The topology and the options of a reduction create, the C-only checks (output
// handle, policy, sync) agreed over comm. The rest (count, type, op, root,
// leaders) the C++ create checks and agrees itself.
const hympi::Topology& checked_reduction(MPI_Comm comm, int policy, int sync, int leaders, int deterministic,
                                         const void* out, hympi::CollectiveOptions& options) {
  return hympi::c_api::agreed_topology(comm, [&] {
    require_handle(out, "output handle");
    options = hympi::c_api::options(policy, sync);
    options.leaders = leaders;
    options.deterministic = deterministic != 0;
  });
}

template <class Handle>
int free_handle(Handle* h) {
  return guarded([&] {
    if (h && *h) {
      delete *h;
      *h = nullptr;
    }
  });
}

}  // namespace

extern "C" {

int hympi_allreduce_create_ex(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int policy, int sync,
                              int leaders, int deterministic, hympi_allreduce_t* out) {
  return guarded([&] {
    hympi::c_api::clear_output(out);
    hympi::CollectiveOptions options;
    const auto& topo = checked_reduction(comm, policy, sync, leaders, deterministic, out, options);
    *out = new hympi_allreduce_s{hympi::Allreduce::create(topo, count, type, op, options)};
  });
}
int hympi_allreduce_create(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int policy, int sync,
                           hympi_allreduce_t* out) {
  return hympi_allreduce_create_ex(comm, count, type, op, policy, sync, 0, 0, out);
}
void* hympi_allreduce_slot(hympi_allreduce_t h) {
  return h ? h->impl->slot() : nullptr;
}
int hympi_allreduce_run(hympi_allreduce_t h) {
  return guarded([&] {
    require_handle(h, "allreduce handle");
    h->impl->run();
  });
}
const void* hympi_allreduce_result(hympi_allreduce_t h) {
  return h ? h->impl->result() : nullptr;
}
size_t hympi_allreduce_bytes_per_node(hympi_allreduce_t h) {
  return h ? h->impl->bytes_per_node() : 0;
}
int hympi_allreduce_free(hympi_allreduce_t* h) {
  return free_handle(h);
}

int hympi_reduce_create_ex(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int root, int policy, int sync,
                           int leaders, int deterministic, hympi_reduce_t* out) {
  return guarded([&] {
    hympi::c_api::clear_output(out);
    hympi::CollectiveOptions options;
    const auto& topo = checked_reduction(comm, policy, sync, leaders, deterministic, out, options);
    *out = new hympi_reduce_s{hympi::Reduce::create(topo, count, type, op, root, options)};
  });
}
int hympi_reduce_create(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int root, int policy, int sync,
                        hympi_reduce_t* out) {
  return hympi_reduce_create_ex(comm, count, type, op, root, policy, sync, 0, 0, out);
}
void* hympi_reduce_slot(hympi_reduce_t h) {
  return h ? h->impl->slot() : nullptr;
}
int hympi_reduce_run(hympi_reduce_t h) {
  return guarded([&] {
    require_handle(h, "reduce handle");
    h->impl->run();
  });
}
const void* hympi_reduce_result(hympi_reduce_t h) {
  return h ? h->impl->result() : nullptr;
}
size_t hympi_reduce_bytes_per_node(hympi_reduce_t h) {
  return h ? h->impl->bytes_per_node() : 0;
}
int hympi_reduce_free(hympi_reduce_t* h) {
  return free_handle(h);
}

int hympi_allreduce_create_f(MPI_Fint comm, int64_t count, MPI_Fint type, MPI_Fint op, int policy, int sync,
                             int leaders, int deterministic, hympi_allreduce_t* out) {
  return hympi_allreduce_create_ex(MPI_Comm_f2c(comm), count, MPI_Type_f2c(type), MPI_Op_f2c(op), policy, sync, leaders,
                                   deterministic, out);
}
int hympi_reduce_create_f(MPI_Fint comm, int64_t count, MPI_Fint type, MPI_Fint op, int root, int policy, int sync,
                          int leaders, int deterministic, hympi_reduce_t* out) {
  return hympi_reduce_create_ex(MPI_Comm_f2c(comm), count, MPI_Type_f2c(type), MPI_Op_f2c(op), root, policy, sync,
                                leaders, deterministic, out);
}

}  // extern "C"
