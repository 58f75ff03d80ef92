// The C face: thin wrappers that turn exceptions into error codes and a message.
#include <cstring>
#include <string>

#include "c_api/support.hpp"
#include "hympi.h"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/node_sync.hpp"
#include "hympi/topology.hpp"

struct hympi_allgatherv_s {
  std::unique_ptr<hympi::Allgatherv> impl;
};
struct hympi_bcast_s {
  std::unique_ptr<hympi::Bcast> impl;
};

using hympi::c_api::create_handle;
using hympi::c_api::free_handle;
using hympi::c_api::guarded;
using hympi::c_api::last_error;
using hympi::c_api::require_handle;

namespace {

// The two bcast creates differ only in overlap.
int create_bcast(MPI_Comm comm, int64_t capacity, size_t elem_size, int policy, int sync, bool overlap,
                 hympi_bcast_t* out) {
  return create_handle(
      comm, policy, sync, out, [&](hympi::CollectiveOptions& opts) { opts.overlap = overlap; },
      [&](const hympi::Topology& topo, const hympi::CollectiveOptions& opts) {
        return new hympi_bcast_s{hympi::Bcast::create(topo, capacity, elem_size, opts)};
      });
}

}  // namespace

extern "C" {

const char* hympi_last_error(void) {
  return last_error.c_str();
}

void hympi_last_error_copy(char* buf, int len) {
  if (!buf || len <= 0) return;
  std::strncpy(buf, last_error.c_str(), static_cast<std::size_t>(len - 1));
  buf[len - 1] = '\0';
}

int hympi_node_info(MPI_Comm comm, int* node_rank, int* node_size, int* node_index, int* num_nodes) {
  return guarded([&] {
    const auto& topo = hympi::Topology::of(comm);
    if (node_rank) *node_rank = topo.node_rank();
    if (node_size) *node_size = topo.node_size();
    if (node_index) *node_index = topo.node_index();
    if (num_nodes) *num_nodes = topo.num_nodes();
  });
}

int hympi_allgatherv_create(MPI_Comm comm, const int64_t* counts, size_t elem_size, int policy, int sync,
                            hympi_allgatherv_t* out) {
  return create_handle(
      comm, policy, sync, out, [&](hympi::CollectiveOptions&) { require_handle(counts, "counts"); },
      [&](const hympi::Topology& topo, const hympi::CollectiveOptions& opts) {
        std::vector<std::int64_t> v(counts, counts + topo.size());
        return new hympi_allgatherv_s{hympi::Allgatherv::create(topo, std::move(v), elem_size, opts)};
      });
}

int hympi_allgather_create(MPI_Comm comm, int64_t count_per_rank, size_t elem_size, int policy, int sync,
                           hympi_allgatherv_t* out) {
  return create_handle(
      comm, policy, sync, out, [](hympi::CollectiveOptions&) {},
      [&](const hympi::Topology& topo, const hympi::CollectiveOptions& opts) {
        return new hympi_allgatherv_s{hympi::Allgatherv::create_allgather(topo, count_per_rank, elem_size, opts)};
      });
}

void* hympi_allgatherv_slot(hympi_allgatherv_t h) {
  return h ? h->impl->slot() : nullptr;
}
const void* hympi_allgatherv_result(hympi_allgatherv_t h) {
  return h ? h->impl->result() : nullptr;
}
int64_t hympi_allgatherv_displ(hympi_allgatherv_t h, int rank) {
  if (!h || rank < 0 || rank >= static_cast<int>(h->impl->displs().size())) return -1;
  return h->impl->displs()[rank];
}

int hympi_allgatherv_run(hympi_allgatherv_t h) {
  return guarded([&] {
    require_handle(h, "allgatherv handle");
    h->impl->run();
  });
}

int hympi_allgatherv_free(hympi_allgatherv_t* h) {
  return free_handle(h);
}

int hympi_bcast_create(MPI_Comm comm, int64_t capacity, size_t elem_size, int policy, int sync, hympi_bcast_t* out) {
  return create_bcast(comm, capacity, elem_size, policy, sync, /*overlap=*/false, out);
}

int hympi_bcast_create_overlap(MPI_Comm comm, int64_t capacity, size_t elem_size, int policy, int sync,
                               hympi_bcast_t* out) {
  return create_bcast(comm, capacity, elem_size, policy, sync, /*overlap=*/true, out);
}

int hympi_bcast_start(hympi_bcast_t h, int root, int64_t count) {
  return guarded([&] {
    require_handle(h, "bcast handle");
    h->impl->start(root, count);
  });
}

int hympi_bcast_wait(hympi_bcast_t h) {
  return guarded([&] {
    require_handle(h, "bcast handle");
    h->impl->wait();
  });
}

void hympi_set_idle_function(void (*idle)(void)) {
  hympi::set_idle_function(idle);
}

void* hympi_bcast_buffer(hympi_bcast_t h) {
  return h ? h->impl->buffer() : nullptr;
}
const void* hympi_bcast_result(hympi_bcast_t h) {
  return h ? h->impl->result() : nullptr;
}

int hympi_bcast_run(hympi_bcast_t h, int root, int64_t count) {
  return guarded([&] {
    require_handle(h, "bcast handle");
    h->impl->run(root, count);
  });
}

int hympi_bcast_free(hympi_bcast_t* h) {
  return free_handle(h);
}

int hympi_allgather_create_f(MPI_Fint comm, int64_t count_per_rank, size_t elem_size, int policy, int sync,
                             hympi_allgatherv_t* out) {
  return hympi_allgather_create(MPI_Comm_f2c(comm), count_per_rank, elem_size, policy, sync, out);
}
int hympi_bcast_create_f(MPI_Fint comm, int64_t capacity, size_t elem_size, int policy, int sync, hympi_bcast_t* out) {
  return hympi_bcast_create(MPI_Comm_f2c(comm), capacity, elem_size, policy, sync, out);
}
int hympi_bcast_create_overlap_f(MPI_Fint comm, int64_t capacity, size_t elem_size, int policy, int sync,
                                 hympi_bcast_t* out) {
  return hympi_bcast_create_overlap(MPI_Comm_f2c(comm), capacity, elem_size, policy, sync, out);
}
int hympi_node_info_f(MPI_Fint comm, int* node_rank, int* node_size, int* node_index, int* num_nodes) {
  return hympi_node_info(MPI_Comm_f2c(comm), node_rank, node_size, node_index, num_nodes);
}

}  // extern "C"
