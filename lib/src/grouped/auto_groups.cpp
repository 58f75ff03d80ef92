// groups = 0: G from a closed form of the route model (apps/model/route_model.py),
// for the machine's broadcast rule (HYMPI_MODEL_BCAST):
// - mpich (default): every level is the MPICH broadcast the thesis names
//   (route_model.mpich_algorithm: binomial below 12 KiB or on fewer than 8 ranks,
//   scatter + recursive doubling below 512 KiB on a power of two, else scatter +
//   ring), charged alpha per message and beta per byte (Hockney).
// - dcmf (BG/P's own MPI_Bcast, mpich2 dcmfd MPIDO_Bcast): without a torus the whole
//   communicator (the world) is pipelined through the network once (rectangle or
//   collective network): alpha per hop level + beta per byte, the leaders go down
//   DCMF's binomial tree, and G = 1 always wins.
// The torus (HYMPI_MODEL_TORUS, torus_terms.hpp), from what the torus-blind form
// missed on the simulated BG/P at 2048 ranks and 64 KiB (issue 44: it picked the
// flat broadcast, 2.93x slower than G = 512 under MPICH's rule, 1.64x under DCMF's):
// - MPICH: every recursive-doubling round pays the flows on its busiest link (the
//   flat broadcast's last round puts 16 flows of 32 KiB on a link: 2.15 ms
//   simulated, 0.37 ms without the sharing, 2.07 ms with it);
// - DCMF: each level by its shape, as DCMF selects: a filled box is the rectangle
//   (one group per node makes the leaders one rank on every node: a filled box), any
//   other the binomial tree, at most 3 ranks MPICH's; the rectangle's nodes post a
//   copy to each of their other ranks per chunk, which is why the world's rectangle
//   (4 per node) lost to the leaders' (1 per node) + the node's own broadcast at 64 KiB.
// A grouped collective costs the leaders' level on G ranks plus the largest
// group's level on ceil(units / G) (DCMF on a torus: the slowest group). The same form
// serves every operation (each grouped one is a leaders' level and a group's
// level of the same bytes). Candidates: G = 1 and powers of two below the units:
// groups that are a power-of-two fraction stay aligned with power-of-two nodes
// (at 6142 simulated BG/P ranks G = 78 splits nodes and loses 1.6x to G = 64).
// Nodes (MPICH's rule): with HYMPI_MODEL_NODE_RANKS = c > 1 ranks per node (block
// placement), a group of consecutive ranks that lies in one node (p/G divides c) is
// charged the on-node HYMPI_MODEL_SHM_ALPHA / HYMPI_MODEL_SHM_BETA: on the simulated
// XC40 (24 ranks per node, 1536 ranks, 1 MiB) G = 64, one group per node, was 1.41x
// faster than the G = 32 the node-blind form picked. Groups smaller than a node put
// c/(p/G) leaders on each node, sharing its link: without a torus their level's beta is
// multiplied by that (on one, the routes say it) (same XC40, 64 KiB: G = 128, two leaders per node, took 1.52x G = 64's time,
// which the form without the sharing preferred). Units that are nodes (the hybrid
// policy) are never charged as on-node. Default c = 1: no node level.
// The machine: HYMPI_MODEL_ALPHA (seconds per message), HYMPI_MODEL_BETA (seconds
// per byte) and HYMPI_MODEL_BCAST (mpich | dcmf) from the environment
// (apps/smpi/run-hier-bcast.sh sets the platform's); default BG/P's parameters
// (make_platform.py bgp: 2.5 us software overhead per off-node message + hops,
// 425 MB/s links) with MPICH's rule.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "decimal.hpp"
#include "grouped/grouped.hpp"
#include "hympi/error.hpp"

namespace hympi::detail {

namespace {

constexpr double kShortBytes = 12 * 1024, kLongBytes = 512 * 1024;
constexpr int kMinRanks = 8;

// A machine figure: unset or empty gives the default; anything else must be a positive
// finite number, all of it (a typo silently replaced by BG/P's figure picked G for the
// wrong machine). Agreed at creation as every variable here (Agreement::options).
double positive_env(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  require(end != text && *end == '\0' && errno == 0 && std::isfinite(v) && v > 0,
          std::string(name) + " must be a positive finite number, got '" + text + "'");
  return v;
}

// Ranks per node: the integer spelling of the info keys (decimal.hpp), at least 1.
int node_ranks_env() {
  const char* text = std::getenv("HYMPI_MODEL_NODE_RANKS");
  if (!text || !*text) return 1;
  int v = 0;
  require(parse_decimal_int(text, v) && v >= 1,
          std::string("HYMPI_MODEL_NODE_RANKS must be a positive integer (decimal digits, at most 2147483647), got '") +
              text + "'");
  return v;
}

int ceil_log2(std::int64_t p) {
  int lg = 0;
  while ((std::int64_t{1} << lg) < p) ++lg;
  return lg;
}

// One MPICH broadcast of `bytes` over the members. On a known torus each recursive-doubling
// round pays the flows on its busiest link (on-node rounds the on-node costs); the other
// phases' bytes pay `shared` (leaders sharing their node's link: their number).
double mpich_seconds(const Members& level, double bytes, const ModelMachine& m, double shared = 1) {
  const std::int64_t p = level.count;
  if (p <= 1) return 0;
  const double lg = ceil_log2(p), spread = static_cast<double>(p - 1) / static_cast<double>(p), beta = m.beta * shared;
  if (bytes < kShortBytes || p < kMinRanks) return lg * (m.alpha + bytes * beta);
  const double scatter = lg * m.alpha + spread * bytes * beta;
  if (bytes < kLongBytes && (p & (p - 1)) == 0) {
    if (!m.torus.known()) return scatter + lg * m.alpha + spread * bytes * beta;
    double doubling = 0;
    for (std::int64_t d = 1; d < p; d *= 2) {
      const double load = exchange_link_load(m.torus, level, d);
      const double piece = bytes * static_cast<double>(d) / static_cast<double>(p);
      doubling += load == 0 ? m.shm_alpha + piece * m.shm_beta : m.alpha + piece * m.beta * load;
    }
    return scatter + doubling;
  }
  return scatter + static_cast<double>(p - 1) * m.alpha + spread * bytes * beta;
}

// DCMF without the torus: a pipelined level (the world, a group: rectangle or collective
// network), or DCMF's binomial tree (the leaders; any level of at most 3 ranks: MPICH's binomial).
double dcmf_seconds(std::int64_t p, double bytes, double alpha, double beta, bool pipelined) {
  if (p <= 1) return 0;
  const double lg = ceil_log2(p);
  if (pipelined && p > 3) return lg * alpha + bytes * beta;
  return lg * (alpha + bytes * beta);
}

// DCMF on a known torus, by the level's shape (dcmf::select without the collective network,
// which the simulated BG/P lacks: a real BG/P would take it for a world-sized communicator):
// at most 3 ranks MPICH's rule, a filled box the rectangle, else DCMF's binomial tree; on
// one node the on-node costs.
double dcmf_shaped_seconds(const Box& box, std::int64_t count, double bytes, const ModelMachine& m) {
  if (count <= 1) return 0;
  if (count > 3 && box.filled) return rectangle_seconds(box, bytes, m);
  // MPICH's binomial (at most 3 ranks) and DCMF's binomial tree cost the same.
  const bool on_node = box.one_node();
  return ceil_log2(count) * ((on_node ? m.shm_alpha : m.alpha) + bytes * (on_node ? m.shm_beta : m.beta));
}

// The leaders are the groups' first ranks but the root, which leads its own group
// (grouped/groups.cpp group_leaders).
double dcmf_grouped_seconds(int units, int groups, double bytes, const ModelMachine& m, int root) {
  if (groups <= 1 || groups >= units) return dcmf_shaped_seconds(box_of_range(m.torus, 0, units), units, bytes, m);
  double slowest_group = 0;  // the groups run at once; each has its own shape
  std::vector<std::int64_t> leaders(static_cast<std::size_t>(groups));
  for (int g = 0; g < groups; ++g) {
    const std::int64_t begin = group_begin(units, groups, g), end = group_begin(units, groups, g + 1);
    leaders[static_cast<std::size_t>(g)] = begin;
    slowest_group = std::max(slowest_group, dcmf_shaped_seconds(box_of_range(m.torus, begin, end - begin), end - begin, bytes, m));
  }
  if (root > 0 && root < units) leaders[static_cast<std::size_t>(group_of(root, units, groups))] = root;
  return dcmf_shaped_seconds(box_of_ranks(m.torus, leaders), groups, bytes, m) + slowest_group;
}

BcastRule rule_from_env() {
  const char* text = std::getenv("HYMPI_MODEL_BCAST");
  const std::string rule = text ? text : "";
  if (rule.empty() || rule == "mpich") return BcastRule::mpich;
  require(rule == "dcmf", "HYMPI_MODEL_BCAST must be mpich or dcmf, got '" + rule + "'");
  return BcastRule::dcmf;
}

TorusShape torus_from_env(int node_ranks) {
  TorusShape torus;
  const char* text = std::getenv("HYMPI_MODEL_TORUS");
  if (text && *text)
    require(parse_torus(text, torus),
            std::string("HYMPI_MODEL_TORUS must be XxYxZ or XxYxZ:mesh (nodes per dimension), got '") + text + "'");
  torus.cores = node_ranks;
  return torus;
}

}  // namespace

const char* name(BcastRule rule) { return rule == BcastRule::dcmf ? "dcmf" : "mpich"; }

ModelMachine model_machine() {
  ModelMachine m;
  m.alpha = positive_env("HYMPI_MODEL_ALPHA", 3.0e-6), m.beta = positive_env("HYMPI_MODEL_BETA", 1.0 / 425e6);
  m.bcast = rule_from_env();
  m.node_ranks = node_ranks_env();
  m.shm_alpha = positive_env("HYMPI_MODEL_SHM_ALPHA", m.alpha);
  m.shm_beta = positive_env("HYMPI_MODEL_SHM_BETA", m.beta);
  m.torus = torus_from_env(m.node_ranks);
  return m;
}

double grouped_seconds(int units, int groups, std::int64_t bytes, const ModelMachine& given, const Placement& where) {
  const double b = static_cast<double>(bytes);
  if (b <= 0) return 0;
  ModelMachine machine = given;
  // The torus places world ranks by block: not the hybrid policy's nodes, not a communicator whose
  // ranks are others, not more ranks than it holds.
  if (where.units_are_nodes || !where.world_block || !machine.torus.fits(units)) machine.torus = TorusShape{};
  if (machine.bcast == BcastRule::dcmf) {
    if (machine.torus.known()) return dcmf_grouped_seconds(units, groups, b, machine, where.root);
    if (groups <= 1 || groups >= units) return dcmf_seconds(units, b, machine.alpha, machine.beta, true);
    const std::int64_t largest = (units + groups - 1) / groups;
    return dcmf_seconds(groups, b, machine.alpha, machine.beta, false) +
           dcmf_seconds(largest, b, machine.alpha, machine.beta, true);
  }
  // MPICH numbers a level's ranks from its root (the torus terms route them so).
  const std::int64_t root = where.root > 0 && where.root < units ? where.root : 0;
  if (groups <= 1 || groups >= units) return mpich_seconds({units, 1, 1, 0, root}, b, machine);  // the flat path
  const std::int64_t largest = (units + groups - 1) / groups;
  // Ranks in nodes of node_ranks (the hybrid policy's units are nodes themselves).
  const bool nodes_known = !where.units_are_nodes && machine.node_ranks > 1;
  ModelMachine inner = machine;
  if (nodes_known && units % groups == 0 && machine.node_ranks % (units / groups) == 0)  // a group in one node
    inner.alpha = machine.shm_alpha, inner.beta = machine.shm_beta;
  // Groups smaller than a node: c / (p/G) leaders per node share its link (XC40, 64 KiB: G = 128,
  // two per node, took 1.52x G = 64's time); on a known torus recursive doubling's routes say it.
  const double shared = nodes_known && largest < machine.node_ranks
                            ? static_cast<double>(machine.node_ranks / largest) : 1.0;
  // The groups run at once: the first, the second (where groups of p/G ranks start off a node's
  // first rank, if they do) and the root's, whose leader is the root.
  double group_level = 0;
  const int root_group = group_of(root, units, groups);
  for (int g : {0, 1, root_group}) {
    const std::int64_t begin = group_begin(units, groups, g), size = group_begin(units, groups, g + 1) - begin;
    group_level = std::max(group_level, mpich_seconds({size, 1, 1, begin, g == root_group ? root - begin : 0}, b, inner));
  }
  return mpich_seconds({groups, units, groups, 0, root_group}, b, machine, shared) + group_level;
}

int automatic_groups(int units, std::int64_t bytes, const Placement& where) {
  const ModelMachine machine = model_machine();
  int best = 1;
  double best_s = grouped_seconds(units, 1, bytes, machine, where);
  for (int g = 2; g < units; g *= 2) {
    const double s = grouped_seconds(units, g, bytes, machine, where);
    if (s < best_s * (1 - 1e-9)) best = g, best_s = s;  // ties keep fewer groups
  }
  return best;
}

}  // namespace hympi::detail
