// Private: the torus terms of groups = auto's closed form (grouped/auto_groups.cpp),
// for a machine whose nodes form a 3-D torus or mesh (HYMPI_MODEL_TORUS) with ranks
// in block placement (rank r on node r / c, c = HYMPI_MODEL_NODE_RANKS; node i at
// x = i % X, y = i / X % Y, z = i / (X Y); dimension-order routes, the shorter way
// round, ties the + way):
// - the link sharing of a recursive-doubling round (MPICH's broadcast below 512 KiB),
//   which on the simulated BG/P made the flat 2048-rank broadcast of 64 KiB 5.7x its
//   alpha-beta time (issue 44);
// - the shape of a communicator (its ranks' bounding box, filled or not), which picks
//   BG/P's DCMF broadcast (rectangle on a filled box, else its binomial tree), and
//   the rectangle's pipelined time (apps/model/dcmf_rule.py, apps/smpi/glue/dcmf_rect.cpp).
// The ranks are world ranks: the caller applies these terms only to a communicator
// whose rank i is world rank i and that fits the torus (fits()).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace hympi::detail {

struct ModelMachine;

struct TorusShape {
  std::array<int, 3> dims{0, 0, 0};  // nodes per dimension; 0: no torus known
  bool mesh = false;                 // no wrap-around links
  int cores = 1;                     // ranks per node
  bool known() const { return dims[0] > 0; }
  // The torus holds `ranks` ranks in block placement.
  bool fits(std::int64_t ranks) const;
};

// "XxYxZ" (a torus) or "XxYxZ:mesh", each 1..65536 and at most 2^22 nodes, nothing else;
// false on anything else.
bool parse_torus(const char* text, TorusShape& out);

// The members of a level: count ranks; member i (relative to the root, as MPICH numbers
// them) is world rank first + ceil(((i + shift) % count) * num / den): every rank of a
// group (num = den = 1), or the leaders of balanced groups (num = units, den = G).
struct Members {
  std::int64_t count = 0, num = 1, den = 1, first = 0, shift = 0;
  std::int64_t rank(std::int64_t i) const { return first + ((i + shift) % count * num + den - 1) / den; }
};

// Flows on the busiest directed link of one recursive-doubling round: member i exchanges
// with member i XOR distance. 0 when every pair shares a node. A closed form on aligned
// power-of-two shapes: members a power of two of nodes apart or per node, any ranks per
// node (exact there: TorusTerms.ExchangeLoadIsTheRoutedLoad, .ClosedFormForAnyRanksPerNode),
// else every flow routed (a few additions each), once per process and shape (a pick at
// 16384 ranks on 16 x 16 x 20: 0.08 s on x86, the cost of a shape the closed form does not cover).
double exchange_link_load(const TorusShape& torus, const Members& members, std::int64_t distance);

// A communicator's bounding box in (x, y, z, t) (t: the rank within its node) and
// whether its ranks fill it (DCMF's RECT shape).
struct Box {
  std::array<int, 4> extent{1, 1, 1, 1};
  std::array<bool, 3> wraps{false, false, false};  // the box spans a wrapping dimension
  std::array<int, 3> partition{1, 1, 1};           // the torus' dimensions (DCMF cuts lines by them)
  bool mesh = false;
  bool filled = false;
  bool one_node() const { return extent[0] == 1 && extent[1] == 1 && extent[2] == 1; }
};
// The ranks first .. first + count - 1 (a group), in constant time.
Box box_of_range(const TorusShape& torus, std::int64_t first, std::int64_t count);
// Any ranks, each once (the leaders).
Box box_of_ranks(const TorusShape& torus, const std::vector<std::int64_t>& ranks);

// BG/P's rectangle broadcast of `bytes` over a filled box: one color per dimension
// of extent > 1 (one in all up to 128 B), each pipelined in chunks of DCMF's
// width; per chunk the slower of the link and the node's one actor, which posts
// its lines (alpha / 2 to send, alpha / 2 to receive) and its node's other ranks'
// copies (the on-node alpha each); the pipeline fills over the slowest color's
// store-and-forward stretches.
double rectangle_seconds(const Box& box, double bytes, const ModelMachine& machine);

}  // namespace hympi::detail
