// The simulated MPI layer's process-wide state (SMPI builds only), kept in the shared
// library hympi_smpi_costs (sim_state.cpp): SMPI privatizes the executable's globals per
// rank, so a table every rank must see (which host runs a world rank, hop counts per
// host pair, a notify's payload, a merged ring's snapshot) lives in a shared library.
// SMPI ranks are cooperative threads of one process: no locking is needed.
#pragma once
#include <simgrid/forward.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace hympi_sim::state {

// World rank -> the host running it (the layer's MPI_Init registers the calling rank).
void register_rank(int world_rank, sg_host_t host);
// The host of a world rank; waits (yields, no simulated time) until it registered in MPI_Init.
sg_host_t host_of(int world_rank);

// Per-host costs from the platform's properties (make_platform.py), in seconds; 0 if unset.
struct HostCosts {
  double net_send_s = 0, net_recv_s = 0, shm_send_s = 0, hop_latency_s = 0;
  bool has_hop_latency = false;  // the platform was written with --sharing fair
};
const HostCosts& costs_of(sg_host_t host);

// Links of the SimGrid route from a to b (0 for a == b), and the route's latency in
// seconds: cached per host pair.
struct Route {
  int hops = 0;
  double latency_s = 0;
};
const Route& route(sg_host_t a, sg_host_t b);

// While the calling rank is inside a message the layer charges itself (overheads = all),
// SMPI's op-cost callbacks (onnode_cost.cpp) must charge nothing: no double charge.
void set_layer_charged(bool on);
bool layer_charged_self();

// A notify's 8-byte payload, queued per (source, destination, tag) world ranks in send order.
void push_payload(int src_world, int dst_world, int tag, std::uint64_t payload);
std::uint64_t pop_payload(int src_world, int dst_world, int tag);

// A merged ring's root snapshot (sim_bcast_algorithms.cpp): the root's bytes, taken by each
// of `takers` other ranks, freed by the last. bytes == nullptr: the root's buffer held no data
// (SMPI shared malloc), nothing to copy.
void put_snapshot(const std::string& key, const void* bytes, std::size_t size, int takers);
// Copies the snapshot into dst (size bytes), waiting (in simulated time) for the root to
// put it if it has not yet.
void take_snapshot(const std::string& key, void* dst, std::size_t size);

}  // namespace hympi_sim::state
