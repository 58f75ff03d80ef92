// On-node message costs under SMPI: what a node's shared memory charges that the
// network model does not. SimGrid's cluster loopback links are FATPIPE (every on-node
// flow gets the full bandwidth) and no copy is charged, so a pure collective's
// on-node messages were almost free and hybrid MPI+MPI could not win on one node.
//
// Rules (the same for pure and hybrid, from the platform's host properties, written
// by apps/smpi/platforms/make_platform.py; a platform without them charges nothing):
//   hympi_shm_overhead_us  software overhead per on-node message (sender side)
//   hympi_core_copy_GBps   one core's copy bandwidth
//   hympi_node_copy_GBps   the node's memory bandwidth, shared by its concurrent copies
// A copy of B bytes on host h starting at time t costs B / min(core, node / k), where
// k counts h's copies still in progress at t plus this one: the node's bandwidth is
// shared by the copies running at once (the first-come copy is not slowed down later,
// an approximation of SHARED sharing that needs no change to SimGrid's link model).
// An on-node message is one copy (single-copy shared-memory transport, as with
// XPMEM/CMA); hybrid's writes into a node window are one copy (hympi_smpi_charge_copy,
// called by the core under HYMPI_SMPI_COSTS). A shared library: one table per process,
// not one per privatized rank.
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/s4u/Host.hpp>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <unordered_map>
#include <vector>

namespace {

struct NodeRates {
  double overhead_s = 0, core_Bps = 0, node_Bps = 0, flag_poll_s = 0;
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
    r.core_Bps = property(host, "hympi_core_copy_GBps", 1e9);
    r.node_Bps = property(host, "hympi_node_copy_GBps", 1e9);
    r.flag_poll_s = property(host, "hympi_flag_poll_us", 1e-6);
  }
  return it->second;
}

// Seconds of a B-byte copy starting now on the node (0 on a platform without rates).
double copy_seconds(const simgrid::s4u::Host* host, std::size_t bytes, double overhead_s) {
  NodeState& node = state_of(host);
  if (!node.rates.charged()) return 0.0;
  const double now = simgrid_get_clock();
  auto& ends = node.copy_ends;
  ends.erase(std::remove_if(ends.begin(), ends.end(), [now](double end) { return end <= now; }), ends.end());
  const double share = node.rates.node_Bps / static_cast<double>(ends.size() + 1);
  const double seconds = overhead_s + static_cast<double>(bytes) / std::min(node.rates.core_Bps, share);
  ends.push_back(now + seconds);
  return seconds;
}

double send_cost(std::size_t bytes, simgrid::s4u::Host* src, simgrid::s4u::Host* dst) {
  if (src != dst) return 0.0;  // off-node: the network model's links and latencies
  return copy_seconds(src, bytes, state_of(src).rates.overhead_s);
}

[[maybe_unused]] const bool registered = [] {
  smpi_register_op_cost_callback(SmpiOperation::SEND, send_cost);
  smpi_register_op_cost_callback(SmpiOperation::ISEND, send_cost);
  return true;
}();

}  // namespace

// A copy into a node window by the calling rank (no message overhead).
extern "C" void hympi_smpi_charge_copy(std::size_t bytes) {
  const double seconds = copy_seconds(sg_host_self(), bytes, 0.0);
  if (seconds > 0) sg_actor_sleep_for(seconds);
}

// The platform's flag poll interval in seconds (a cache-line transfer), 0 if unset.
extern "C" double hympi_smpi_flag_poll_seconds() { return state_of(sg_host_self()).rates.flag_poll_s; }
