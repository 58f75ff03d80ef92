// The simulated MPI layer's process-wide tables (sim_state.hpp): one per process, so
// in the shared library hympi_smpi_costs, not in the privatized executable.
#include "sim_state.hpp"

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/mutex.h>
#include <simgrid/host.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace hympi_sim::state {
namespace {

std::vector<sg_host_t>& hosts() {
  static std::vector<sg_host_t> table;
  return table;
}

double property_s(sg_host_t host, const char* name, bool* present = nullptr) {
  const char* value = host->get_property(name);
  if (present) *present = value != nullptr;
  return value ? std::atof(value) * 1e-6 : 0.0;
}

struct PairHash {
  std::size_t operator()(const std::pair<sg_host_t, sg_host_t>& p) const {
    return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
  }
};

struct Snapshot {
  std::vector<char> bytes;
  bool has_data = false;
  int takers_left = 0;
};

}  // namespace

void register_rank(int world_rank, sg_host_t host) {
  auto& table = hosts();
  if (static_cast<int>(table.size()) <= world_rank) table.resize(world_rank + 1, nullptr);
  table[world_rank] = host;
}

sg_host_t host_of(int world_rank) {
  // Every rank registers in MPI_Init at simulated time 0, before its first message: a
  // sender that runs first only has to let the others reach their MPI_Init.
  for (long tries = 0; tries < 1000000; ++tries) {
    const auto& table = hosts();
    if (world_rank < static_cast<int>(table.size()) && table[world_rank]) return table[world_rank];
    sg_actor_yield();
  }
  std::fprintf(stderr, "hympi sim layer: world rank %d never registered its host (MPI_Init not wrapped?)\n",
               world_rank);
  std::abort();
}

const HostCosts& costs_of(sg_host_t host) {
  static std::unordered_map<sg_host_t, HostCosts> table;
  auto [it, added] = table.try_emplace(host);
  if (added) {
    HostCosts& c = it->second;
    c.net_send_s = property_s(host, "hympi_net_send_overhead_us");
    c.net_recv_s = property_s(host, "hympi_net_recv_overhead_us");
    c.shm_send_s = property_s(host, "hympi_shm_overhead_us");
    c.hop_latency_s = property_s(host, "hympi_hop_latency_us", &c.has_hop_latency);
  }
  return it->second;
}

const Route& route(sg_host_t a, sg_host_t b) {
  static std::unordered_map<std::pair<sg_host_t, sg_host_t>, Route, PairHash> table;
  auto [it, added] = table.try_emplace({a, b});
  if (added && a != b) {
    std::vector<simgrid::s4u::Link*> links;
    double latency = 0;
    a->route_to(b, links, &latency);
    it->second.hops = static_cast<int>(links.size());
    it->second.latency_s = latency;
  }
  return it->second;
}

namespace {
std::unordered_set<aid_t>& charged_actors() {
  static std::unordered_set<aid_t> set;
  return set;
}
}  // namespace

void set_layer_charged(bool on) {
  if (on)
    charged_actors().insert(sg_actor_self_get_pid());
  else
    charged_actors().erase(sg_actor_self_get_pid());
}

bool layer_charged_self() {
  const auto& set = charged_actors();
  return !set.empty() && set.count(sg_actor_self_get_pid()) > 0;
}

namespace {
std::map<std::tuple<int, int, int>, std::deque<std::uint64_t>>& payloads() {
  static std::map<std::tuple<int, int, int>, std::deque<std::uint64_t>> table;
  return table;
}
std::unordered_map<std::string, Snapshot>& snapshots() {
  static std::unordered_map<std::string, Snapshot> table;
  return table;
}
// Signalled when a snapshot is put: a taker that got there first waits for it.
struct SnapshotSignal {
  sg_mutex_t mutex = sg_mutex_init();
  sg_cond_t cond = sg_cond_init();
};
// Not a function-local static: creating a mutex is a simcall, which lets other ranks run,
// and one of them entering the same static's initialization throws recursive_init_error.
// A rank that finds it made while its own was being made keeps the first (a leaked pair).
SnapshotSignal& snapshot_signal() {
  static SnapshotSignal* signal = nullptr;
  if (signal == nullptr) {
    auto* made = new SnapshotSignal;
    if (signal == nullptr) signal = made;
  }
  return *signal;
}
}  // namespace

void push_payload(int src_world, int dst_world, int tag, std::uint64_t payload) {
  payloads()[{src_world, dst_world, tag}].push_back(payload);
}

std::uint64_t pop_payload(int src_world, int dst_world, int tag) {
  auto it = payloads().find({src_world, dst_world, tag});
  if (it == payloads().end() || it->second.empty()) {
    std::fprintf(stderr, "hympi sim layer: a notify from %d to %d (tag %d) arrived without its payload\n", src_world,
                 dst_world, tag);
    std::abort();
  }
  const std::uint64_t value = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) payloads().erase(it);
  return value;
}

void put_snapshot(const std::string& key, const void* bytes, std::size_t size, int takers) {
  if (takers <= 0) return;
  auto [it, added] = snapshots().try_emplace(key);
  if (!added) {
    std::fprintf(stderr, "hympi sim layer: two merged-ring broadcasts in flight on communicators of the same ranks "
                         "(%s); not supported with HYMPI_SIM_RING_MERGE > 1\n", key.c_str());
    std::abort();
  }
  it->second.takers_left = takers;
  it->second.has_data = bytes != nullptr;
  if (bytes) it->second.bytes.assign(static_cast<const char*>(bytes), static_cast<const char*>(bytes) + size);
  sg_cond_notify_all(snapshot_signal().cond);
}

void take_snapshot(const std::string& key, void* dst, std::size_t size) {
  auto it = snapshots().find(key);
  if (it == snapshots().end()) {  // a merged ring need not depend on the root: wait for it (simulated time)
    SnapshotSignal& signal = snapshot_signal();
    sg_mutex_lock(signal.mutex);
    while ((it = snapshots().find(key)) == snapshots().end()) sg_cond_wait(signal.cond, signal.mutex);
    sg_mutex_unlock(signal.mutex);
  }
  if (it->second.has_data) std::memcpy(dst, it->second.bytes.data(), std::min(size, it->second.bytes.size()));
  if (--it->second.takers_left == 0) snapshots().erase(it);
}

}  // namespace hympi_sim::state
