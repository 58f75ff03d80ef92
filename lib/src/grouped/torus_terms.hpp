// Private: the torus terms of groups = auto's closed form (grouped/auto_groups.cpp),
// for a machine whose nodes form a 3-D torus or mesh (HYMPI_MODEL_TORUS) with ranks
// in block placement (rank r on node r / c, c = HYMPI_MODEL_NODE_RANKS; node i at
// x = i % X, y = i / X % Y, z = i / (X Y), dimension-order routes the shorter way):
// - the link sharing of a recursive-doubling round (MPICH's broadcast below 512 KiB),
//   which on the simulated BG/P made the flat 2048-rank broadcast of 64 KiB 5.7x its
//   alpha-beta time (issue 44);
// - the shape of a communicator (its ranks' bounding box, filled or not), which picks
//   BG/P's DCMF broadcast (rectangle on a filled box, else its binomial tree), and
//   the rectangle's pipelined time (apps/model/dcmf_rule.py, apps/smpi/glue/dcmf_rect.cpp).
#pragma once
#include <array>
#include <cstdint>

namespace hympi::detail {

struct ModelMachine;

struct TorusShape {
  std::array<int, 3> dims{0, 0, 0};  // nodes per dimension; 0: no torus known
  bool mesh = false;                 // no wrap-around links
  int cores = 1;                     // ranks per node
  bool known() const { return dims[0] > 0; }
};

// "XxYxZ" (a torus) or "XxYxZ:mesh"; false on anything else.
bool parse_torus(const char* text, TorusShape& out);

// Flows on the busiest link of one recursive-doubling round: members are every
// `stride`-th rank from a node-aligned first rank, each exchanging with the member
// `distance` members away (XOR). 0 when the partners share a node.
double exchange_link_load(const TorusShape& torus, std::int64_t stride, std::int64_t distance);

// A communicator's bounding box in (x, y, z, t) (t: the rank within its node) and
// whether its ranks fill it (DCMF's RECT shape).
struct Box {
  std::array<int, 4> extent{1, 1, 1, 1};
  std::array<bool, 3> wraps{false, false, false};  // the box spans a wrapping dimension
  bool filled = false;
};
// The ranks first, first + stride, ... (count of them; stride may be fractional:
// the leaders of balanced groups, rank ceil(g * p / G)).
Box box_of(const TorusShape& torus, std::int64_t first, std::int64_t count, double stride);

// BG/P's rectangle broadcast of `bytes` over a filled box: one color per dimension
// of extent > 1 (one in all up to 128 B), each pipelined in chunks of DCMF's
// width; per chunk the slower of the link and the node's one actor, which posts
// its lines (alpha / 2 to send, alpha / 2 to receive) and its node's other ranks'
// copies (the on-node alpha each); the pipeline fills over the lines' stretches.
double rectangle_seconds(const Box& box, double bytes, const ModelMachine& machine);

}  // namespace hympi::detail
