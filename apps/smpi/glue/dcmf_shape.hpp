// BG/P's DCMF broadcast rule, the pure part (no MPI, no SimGrid): a communicator's
// shape from its ranks' (x,y,z,t) coordinates, MPIDO_Bcast's choice of algorithm, and
// the rectangle broadcast's colors and per-node roles. What the BG/P source says and
// what is modelled: apps/smpi/README.md, "BG/P's broadcast (DCMF)".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hympi_sim::dcmf {

constexpr int kAxes = 3;  // x, y, z: the torus/mesh axes; t (the core on the node) is separate

struct Coords {
  int c[4] = {0, 0, 0, 0};  // x, y, z, t
  int& operator[](int a) { return c[a]; }
  int operator[](int a) const { return c[a]; }
  bool operator==(const Coords& o) const;
  std::string str() const;
};

// The bounding box of a communicator's coordinates (inclusive).
struct Box {
  Coords lo, hi;
  int extent(int axis) const { return hi[axis] - lo[axis] + 1; }
  long long volume() const;
  bool contains(const Coords& p) const;
};

// mpich2 dcmfd MPIDI_Coll_Comm_create: RECT when the box is exactly filled (t included);
// world (the source's "global" context) when the communicator has every rank of the job;
// IRREG when neither.
enum class Shape { world, rect, irreg };
struct CommShape {
  Box box;
  bool filled = false;  // x*y*z*t extents == size: the rectangle protocols are available
  bool global = false;  // size == the job's size: the collective network (tree) is available
  Shape shape() const { return global ? Shape::world : filled ? Shape::rect : Shape::irreg; }
};
CommShape classify(const Box& box, int size, int world_size);
CommShape classify(const std::vector<Coords>& members, int world_size);
const char* name(Shape s);

// MPIDO_Bcast's protocols (mpich2 dcmfd coll/bcast/mpido_bcast.c, the CCMI version).
enum class Algorithm {
  tree,            // MPIDO_Bcast_tree: the collective network
  rect_async,      // MPIDO_Bcast_rect_async: asynchronous rectangle, one color
  rect_singleth,   // MPIDO_Bcast_rect_singleth
  rect_dput,       // MPIDO_Bcast_rect_dput: rectangle, direct put
  rect_sync,       // MPIDO_Bcast_rect_sync
  binom_async,     // MPIDO_Bcast_binom_async
  binom_singleth,  // MPIDO_Bcast_binom_singleth
  binom_sync,      // MPIDO_Bcast_binom_sync
  mpich,           // MPIR_Bcast_intra (communicators of at most 3 ranks)
};
const char* name(Algorithm a);
bool is_rectangle(Algorithm a);
// The source's order for `bytes` on a communicator of this shape and size (defaults: single
// thread, every protocol registered, 16-byte aligned buffers). The tree is not in the
// simulated platform: with tree_modelled = false it counts as unavailable and the source's
// next choice is taken.
Algorithm select(const CommShape& shape, long long bytes, int size, bool tree_modelled = false);

// A rectangle color: the primary axis and its direction (+1 / -1).
struct Color {
  int axis = 0;
  int dir = +1;
};
// CCMI OneColorRectangle::getColors: one "positive" color per axis of extent > 1, the
// axes in increasing extent (the "ideal" set; negative colors are not used by default).
std::vector<Color> rect_colors(const Box& box);
// CCMI get_rcolors (MIN_PIPELINE_WIDTH_TORUS = 480 B): the pipeline width and how many of
// the colors a message of `bytes` uses; slices are bytes / colors rounded down to 16 B, the
// last color takes the rest (MultiColorCompositeT).
struct ColorPlan {
  std::vector<Color> colors;
  long long pipeline_width = 480;
  std::vector<long long> offset, bytes;  // per color
};
ColorPlan plan_colors(const Box& box, long long bytes, bool one_color);

// One line broadcast (a deposit-bit packet along one axis): from the sender to the
// farthest node `far` in one direction, passing (and depositing at) `passed` on the way.
struct Line {
  int axis = 0, dir = +1;
  Coords far;
  std::vector<Coords> passed;
};
// A node's part in one color of the rectangle schedule (CCMI OneColorRectBcastSched):
// its line broadcasts in order and, for the rank with the root's t, the node's other
// ranks it sends to (local core-to-core). wraps[a]: the rectangle spans the whole torus
// axis a (isTorusX etc.): one line in the color's direction around the ring, else up to
// two (towards both ends of the box).
struct Role {
  std::vector<Line> lines;
  std::vector<Coords> local;
};
Role rect_role(const Box& box, const bool wraps[kAxes], const Coords& root, const Coords& me, Color color);

// Hops between two nodes along one axis in a direction (wrapping on a torus axis).
int hops_along(int from, int to, int dir, int extent_of_ring);

}  // namespace hympi_sim::dcmf
