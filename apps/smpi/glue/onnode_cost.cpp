// On-node message costs under SMPI: what a node's shared memory charges that the
// network model does not. SimGrid's cluster loopback links are FATPIPE (every on-node
// flow gets the link's full bandwidth, however many run at once) and SMPI charges no
// per-message software cost, so pure collectives' on-node messages were almost free.
//
// Rules (the same for pure and hybrid, from the platform's host properties, written
// by apps/smpi/platforms/make_platform.py; a platform without them charges nothing):
//   hympi_shm_overhead_us  software overhead per on-node message, charged to the sender
//                          (SMPI charges it to nonblocking and small, detached sends)
//   hympi_core_copy_GBps   one core's copy bandwidth (the platform's loopback bandwidth)
//   hympi_node_copy_GBps   the node's memory bandwidth, shared by its copies in progress
//   hympi_cache_bytes      copies up to this size stay in the core's cache share...
//   hympi_cache_copy_GBps  ...and run at this rate, not shared (cache bandwidth grows with the cores)
//   hympi_flag_poll_us     a flag poll (a cache-line transfer), read by smpi_yield.cpp
//   hympi_fence_us         a memory fence: what MPI_Win_sync costs (win_sync_cost.cpp charges it)
//   hympi_net_send_overhead_us / hympi_net_recv_overhead_us
//                          software overhead per OFF-node message, charged to the sender
//                          (as above) and to the receiver (SMPI: only when the sender was
//                          detached): the MPI stack's share of the machine's end-to-end
//                          latency (the bgp platform; 0 elsewhere).
// A message the simulated MPI layer charges itself (overheads = all, sim_p2p.cpp) is charged
// nothing here: no double charge.
//                          Here, not in smpi/os or smpi/or: a registered op-cost callback
//                          replaces those settings for every message.
// A larger copy on node h starting at time t runs at min(core, node / k), k = h's
// memory copies in progress at t plus this one. On-node messages get it as a bandwidth factor on the
// loopback (SimGrid's network-model callback), hybrid's writes into a node window
// (hympi_smpi_charge_copy, called by the core under HYMPI_SMPI_COSTS) as a sleep. A
// copy's rate is fixed at its start (a later copy does not slow an earlier one down):
// an approximation of shared bandwidth that needs no change to SimGrid's link model.
// A shared library: one table per process, not one per privatized rank.
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <unordered_map>
#include <vector>

#include "sim_state.hpp"

namespace {

struct NodeRates {
  double overhead_s = 0, net_send_s = 0, net_recv_s = 0, core_Bps = 0, node_Bps = 0, flag_poll_s = 0, fence_s = 0,
         cache_bytes = 0, cache_Bps = 0;
  bool charged() const { return core_Bps > 0 && node_Bps > 0; }
};

struct NodeState {
  NodeRates rates;
  std::vector<double> copy_ends;  // end times of this node's copies in progress
};

double property(const simgrid::s4u::Host* host, const char* name, double scale) {
  const char* value = host->get_property(name);
  return value ? std::atof(value) * scale : 0.0;
}

NodeState& state_of(const simgrid::s4u::Host* host) {
  static std::unordered_map<const simgrid::s4u::Host*, NodeState> states;
  auto [it, added] = states.try_emplace(host);
  if (added) {
    NodeRates& r = it->second.rates;
    r.overhead_s = property(host, "hympi_shm_overhead_us", 1e-6);
    r.net_send_s = property(host, "hympi_net_send_overhead_us", 1e-6);
    r.net_recv_s = property(host, "hympi_net_recv_overhead_us", 1e-6);
    r.core_Bps = property(host, "hympi_core_copy_GBps", 1e9);
    r.node_Bps = property(host, "hympi_node_copy_GBps", 1e9);
    r.flag_poll_s = property(host, "hympi_flag_poll_us", 1e-6);
    r.fence_s = property(host, "hympi_fence_us", 1e-6);
    r.cache_bytes = property(host, "hympi_cache_bytes", 1.0);
    r.cache_Bps = property(host, "hympi_cache_copy_GBps", 1e9);
  }
  return it->second;
}

// The rate (bytes/s) of a copy of `bytes` starting now on the node, recorded as in
// progress until it ends (0: the platform has no rates).
double start_copy(const simgrid::s4u::Host* host, double bytes) {
  NodeState& node = state_of(host);
  if (!node.rates.charged()) return 0.0;
  if (bytes <= node.rates.cache_bytes && node.rates.cache_Bps > 0) return node.rates.cache_Bps;
  const double now = simgrid_get_clock();
  auto& ends = node.copy_ends;
  ends.erase(std::remove_if(ends.begin(), ends.end(), [now](double end) { return end <= now; }), ends.end());
  const double rate = std::min(node.rates.core_Bps, node.rates.node_Bps / static_cast<double>(ends.size() + 1));
  ends.push_back(now + bytes / rate);
  return rate;
}

// A message the simulated MPI layer charges itself (overheads = all, sim_p2p.cpp) costs nothing here.
double send_cost(std::size_t, simgrid::s4u::Host* src, simgrid::s4u::Host* dst) {
  if (src == nullptr) return 0.0;  // SMPI's aggregate requests of some collectives
  if (hympi_sim::state::layer_charged_self()) return 0.0;
  const NodeRates& r = state_of(src).rates;
  return src == dst ? r.overhead_s : r.net_send_s;
}

// Charged to the receiver (dst); an unknown source (MPI_ANY_SOURCE) counts as off-node.
double recv_cost(std::size_t, simgrid::s4u::Host* src, simgrid::s4u::Host* dst) {
  if (dst == nullptr || src == dst || hympi_sim::state::layer_charged_self()) return 0.0;
  return state_of(dst).rates.net_recv_s;
}

// The loopback runs at the core's memory copy rate: an on-node flow gets its rate as a factor.
double bandwidth_factor(double bytes, const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst,
                        const std::vector<simgrid::s4u::Link*>&, const std::unordered_set<simgrid::s4u::NetZone*>&) {
  if (src != dst || bytes <= 0) return 1.0;
  const double rate = start_copy(src, bytes);
  return rate > 0 ? rate / state_of(src).rates.core_Bps : 1.0;
}

void install_bandwidth_factor() {
  simgrid::s4u::Engine::get_instance()->get_netzone_root()->get_network_model()->set_bw_factor_cb(bandwidth_factor);
}

// smpirun loads this library with the first simulated rank, when the platform exists.
[[maybe_unused]] const bool registered = [] {
  smpi_register_op_cost_callback(SmpiOperation::SEND, send_cost);
  smpi_register_op_cost_callback(SmpiOperation::ISEND, send_cost);
  smpi_register_op_cost_callback(SmpiOperation::RECV, recv_cost);
  if (simgrid::s4u::Engine::is_initialized() && simgrid::s4u::Engine::get_instance()->get_netzone_root())
    install_bandwidth_factor();
  else
    simgrid::s4u::Engine::on_platform_created_cb(install_bandwidth_factor);
  return true;
}();

}  // namespace

// A copy by the calling rank: into a node window, or an application's write into slot().
extern "C" void hympi_smpi_charge_copy(std::size_t bytes) {
  const simgrid::s4u::Host* host = sg_host_self();
  const double rate = start_copy(host, static_cast<double>(bytes));
  if (rate > 0) sg_actor_sleep_for(static_cast<double>(bytes) / rate);
}

// The platform's flag poll interval in seconds (a cache-line transfer), 0 if unset.
extern "C" double hympi_smpi_flag_poll_seconds() {
  return state_of(sg_host_self()).rates.flag_poll_s;
}

// A memory fence by the calling rank (MPI_Win_sync): the platform's hympi_fence_us, none if unset.
extern "C" void hympi_smpi_charge_fence() {
  const double seconds = state_of(sg_host_self()).rates.fence_s;
  if (seconds > 0) sg_actor_sleep_for(seconds);
}
