// groups = 0: G from a closed form of the route model (apps/model/route_model.py)
// without its torus, for the machine's broadcast rule (HYMPI_MODEL_BCAST):
// - mpich (default): every level is the MPICH broadcast the thesis names
//   (route_model.mpich_algorithm: binomial below 12 KiB or on fewer than 8 ranks,
//   scatter + recursive doubling below 512 KiB on a power of two, else scatter +
//   ring), charged alpha per message and beta per byte (Hockney).
// - dcmf (BG/P's own MPI_Bcast, mpich2 dcmfd MPIDO_Bcast): the whole communicator
//   (the world) is pipelined through the network once, by the rectangle when it
//   fills its box, else by the collective network: alpha per hop level + beta per
//   byte. A grouped broadcast's leaders (one rank in every p/G) are not a filled
//   box in general, so DCMF sends them down its binomial tree, and a group (whole
//   consecutive nodes) is at best a rectangle, pipelined like the world: G > 1
//   always costs more than the flat broadcast, and the choice is G = 1. Measured on the simulated BG/P (2026-11-27, 512 KiB, faithful set):
//   the flat world broadcast beat every swept G at 2048 ranks (the rectangle) and
//   at 6142 (the simulated platform has no collective network: its flat
//   broadcast is the binomial, and the grouped ones were 1.24-1.33x slower still).
// A grouped collective costs the leaders' level on G ranks plus the largest
// group's level on ceil(units / G). Link sharing, which the route model replays,
// is left out: it moves the optimum little for block placement. The same form
// serves every operation (each grouped one is a leaders' level and a group's
// level of the same bytes). Candidates: G = 1 and powers of two below the units:
// groups that are a power-of-two fraction stay aligned with power-of-two nodes
// (at 6142 simulated BG/P ranks G = 78 splits nodes and loses 1.6x to G = 64).
// Nodes (MPICH's rule): with HYMPI_MODEL_NODE_RANKS = c > 1 ranks per node (block
// placement), a group of consecutive ranks that lies in one node (p/G divides c) is
// charged the on-node HYMPI_MODEL_SHM_ALPHA / HYMPI_MODEL_SHM_BETA: on the simulated
// XC40 (24 ranks per node, 1536 ranks, 1 MiB) G = 64, one group per node, was 1.41x
// faster than the G = 32 the node-blind form picked. Groups smaller than a node put
// c/(p/G) leaders on each node, sharing its link: their level's beta is multiplied by
// that (same XC40, 64 KiB: G = 128, two leaders per node, took 1.52x G = 64's time,
// which the form without the sharing preferred). Units that are nodes (the hybrid
// policy) are never charged as on-node. Default c = 1: no node level.
// The machine: HYMPI_MODEL_ALPHA (seconds per message), HYMPI_MODEL_BETA (seconds
// per byte) and HYMPI_MODEL_BCAST (mpich | dcmf) from the environment
// (apps/smpi/run-hier-bcast.sh sets the platform's); default BG/P's parameters
// (make_platform.py bgp: 2.5 us software overhead per off-node message + hops,
// 425 MB/s links) with MPICH's rule.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "grouped/grouped.hpp"
#include "hympi/error.hpp"

namespace hympi::detail {

namespace {

constexpr double kShortBytes = 12 * 1024, kLongBytes = 512 * 1024;
constexpr int kMinRanks = 8;

double env_or(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  return (end && *end == '\0' && v > 0) ? v : fallback;
}

int ceil_log2(std::int64_t p) {
  int lg = 0;
  while ((std::int64_t{1} << lg) < p) ++lg;
  return lg;
}

// One MPICH broadcast of `bytes` among p ranks.
double mpich_seconds(std::int64_t p, double bytes, double alpha, double beta) {
  if (p <= 1) return 0;
  const double lg = ceil_log2(p), spread = static_cast<double>(p - 1) / static_cast<double>(p);
  if (bytes < kShortBytes || p < kMinRanks) return lg * (alpha + bytes * beta);
  const double scatter = lg * alpha + spread * bytes * beta;
  if (bytes < kLongBytes && (p & (p - 1)) == 0) return scatter + lg * alpha + spread * bytes * beta;
  return scatter + static_cast<double>(p - 1) * alpha + spread * bytes * beta;
}

// DCMF: a pipelined level (the world, a group: rectangle or collective network), or
// DCMF's binomial tree (the leaders; any level of at most 3 ranks: MPICH's binomial).
double dcmf_seconds(std::int64_t p, double bytes, double alpha, double beta, bool pipelined) {
  if (p <= 1) return 0;
  const double lg = ceil_log2(p);
  if (pipelined && p > 3) return lg * alpha + bytes * beta;
  return lg * (alpha + bytes * beta);
}

double bcast_seconds(std::int64_t p, double bytes, const ModelMachine& m, bool pipelined) {
  return m.bcast == BcastRule::dcmf ? dcmf_seconds(p, bytes, m.alpha, m.beta, pipelined)
                                    : mpich_seconds(p, bytes, m.alpha, m.beta);
}

BcastRule rule_from_env() {
  const char* text = std::getenv("HYMPI_MODEL_BCAST");
  const std::string rule = text ? text : "";
  if (rule.empty() || rule == "mpich") return BcastRule::mpich;
  require(rule == "dcmf", "HYMPI_MODEL_BCAST must be mpich or dcmf, got '" + rule + "'");
  return BcastRule::dcmf;
}

}  // namespace

const char* name(BcastRule rule) { return rule == BcastRule::dcmf ? "dcmf" : "mpich"; }

ModelMachine model_machine() {
  ModelMachine m{env_or("HYMPI_MODEL_ALPHA", 3.0e-6), env_or("HYMPI_MODEL_BETA", 1.0 / 425e6), rule_from_env()};
  m.node_ranks = static_cast<int>(env_or("HYMPI_MODEL_NODE_RANKS", 1));
  m.shm_alpha = env_or("HYMPI_MODEL_SHM_ALPHA", m.alpha);
  m.shm_beta = env_or("HYMPI_MODEL_SHM_BETA", m.beta);
  return m;
}

double grouped_seconds(int units, int groups, std::int64_t bytes, const ModelMachine& machine, bool units_are_nodes) {
  const double b = static_cast<double>(bytes);
  if (groups <= 1 || groups >= units) return bcast_seconds(units, b, machine, true);  // the flat path
  const std::int64_t largest = (units + groups - 1) / groups;
  // Ranks in nodes of node_ranks (MPICH's rule; the hybrid policy's units are nodes themselves).
  const bool nodes_known = !units_are_nodes && machine.bcast == BcastRule::mpich && machine.node_ranks > 1;
  ModelMachine inner = machine;
  if (nodes_known && units % groups == 0 && machine.node_ranks % (units / groups) == 0)  // a group in one node
    inner.alpha = machine.shm_alpha, inner.beta = machine.shm_beta;
  // Groups smaller than a node: c / (p/G) leaders per node share its link (XC40, 64 KiB: G = 128,
  // two per node, took 1.52x G = 64's time).
  ModelMachine leaders = machine;
  if (nodes_known && largest < machine.node_ranks)
    leaders.beta = machine.beta * static_cast<double>(machine.node_ranks / largest);
  return bcast_seconds(groups, b, leaders, false) + bcast_seconds(largest, b, inner, true);
}

int automatic_groups(int units, std::int64_t bytes, bool units_are_nodes) {
  const ModelMachine machine = model_machine();
  int best = 1;
  double best_s = grouped_seconds(units, 1, bytes, machine, units_are_nodes);
  for (int g = 2; g < units; g *= 2) {
    const double s = grouped_seconds(units, g, bytes, machine, units_are_nodes);
    if (s < best_s * (1 - 1e-9)) best = g, best_s = s;  // ties keep fewer groups
  }
  return best;
}

}  // namespace hympi::detail
