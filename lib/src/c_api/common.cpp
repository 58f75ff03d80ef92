// The C face's process-wide calls: the last error, node information and the idle
// function (the requests are in persistent.cpp, hympi_version in version.cpp).
#include <cstring>

#include "c_api/support.hpp"
#include "hympi/hympi.h"
#include "hympi/node_sync.hpp"
#include "hympi/topology.hpp"

using hympi::c_api::guarded;
using hympi::c_api::last_error;

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

int hympi_node_info_f(MPI_Fint comm, int* node_rank, int* node_size, int* node_index, int* num_nodes) {
  return hympi_node_info(MPI_Comm_f2c(comm), node_rank, node_size, node_index, num_nodes);
}

void hympi_set_idle_function(void (*idle)(void)) {
  hympi::set_idle_function(idle);
}

}  // extern "C"
