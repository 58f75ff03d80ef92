// BG/P's DCMF broadcast rule, the pure part: see dcmf_shape.hpp and apps/smpi/README.md
// ("BG/P's broadcast (DCMF)") for the source files each function follows.
#include "dcmf_shape.hpp"

#include <algorithm>
#include <stdexcept>

namespace hympi_sim::dcmf {

bool Coords::operator==(const Coords& o) const {
  return c[0] == o.c[0] && c[1] == o.c[1] && c[2] == o.c[2] && c[3] == o.c[3];
}

std::string Coords::str() const {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + "," +
         std::to_string(c[3]) + ")";
}

long long Box::volume() const {
  long long v = 1;
  for (int a = 0; a < 4; ++a) v *= extent(a);
  return v;
}

bool Box::contains(const Coords& p) const {
  for (int a = 0; a < 4; ++a)
    if (p[a] < lo[a] || p[a] > hi[a]) return false;
  return true;
}

CommShape classify(const Box& box, int size, int world_size) {
  CommShape s;
  s.box = box;
  s.filled = box.volume() == size;
  s.global = size == world_size;
  return s;
}

CommShape classify(const std::vector<Coords>& members, int world_size) {
  if (members.empty()) throw std::invalid_argument("dcmf::classify: a communicator without members");
  Box box{members[0], members[0]};
  for (const Coords& m : members)
    for (int a = 0; a < 4; ++a) {
      box.lo[a] = std::min(box.lo[a], m[a]);
      box.hi[a] = std::max(box.hi[a], m[a]);
    }
  return classify(box, static_cast<int>(members.size()), world_size);
}

const char* name(Shape s) {
  switch (s) {
    case Shape::world: return "WORLD";
    case Shape::rect: return "RECT";
    case Shape::irreg: return "IRREG";
  }
  return "?";
}

const char* name(Algorithm a) {
  switch (a) {
    case Algorithm::tree: return "tree";
    case Algorithm::rect_async: return "rect_async";
    case Algorithm::rect_singleth: return "rect_singleth";
    case Algorithm::rect_dput: return "rect_dput";
    case Algorithm::rect_sync: return "rect_sync";
    case Algorithm::binom_async: return "binom_async";
    case Algorithm::binom_singleth: return "binom_singleth";
    case Algorithm::binom_sync: return "binom_sync";
    case Algorithm::mpich: return "mpich";
  }
  return "?";
}

bool is_rectangle(Algorithm a) {
  return a == Algorithm::rect_async || a == Algorithm::rect_singleth || a == Algorithm::rect_dput ||
         a == Algorithm::rect_sync;
}

Algorithm select(const CommShape& shape, long long bytes, int size, bool tree_modelled) {
  // MPIDI_Comm_setup_properties: communicators of 3 ranks or fewer use MPICH's broadcast.
  if (size <= 3) return Algorithm::mpich;
  const bool tree = tree_modelled && shape.global;  // MPIDO_USE_TREE_BCAST: global context only
  const bool rect = shape.filled;                   // MPIDO_RECT_COMM
  // MPIDO_Bcast: the first available protocol of the size class's list.
  if (bytes <= 1024) {
    if (tree) return Algorithm::tree;
    if (rect && bytes > 128) return Algorithm::rect_singleth;
    if (rect) return Algorithm::rect_async;
    return Algorithm::binom_async;
  }
  if (bytes <= 8192) {
    if (tree) return Algorithm::tree;
    if (rect) return Algorithm::rect_singleth;
    return Algorithm::binom_async;
  }
  if (bytes <= 65536) {
    if (tree) return Algorithm::tree;
    if (rect) return Algorithm::rect_dput;
    return Algorithm::binom_singleth;
  }
  if (rect) return Algorithm::rect_dput;
  if (tree) return Algorithm::tree;
  return Algorithm::binom_singleth;
}

std::vector<Color> rect_colors(const Box& box) {
  int axes[kAxes] = {0, 1, 2};
  // Increasing extent; equal extents keep x, y, z order (the source's bubble sort is stable).
  std::stable_sort(axes, axes + kAxes, [&](int a, int b) { return box.extent(a) < box.extent(b); });
  std::vector<Color> colors;
  for (int a : axes)
    if (box.extent(a) > 1) colors.push_back(Color{a, +1});
  if (colors.empty()) colors.push_back(Color{0, +1});  // no x, y or z extent: one dummy color
  return colors;
}

ColorPlan plan_colors(const Box& box, long long bytes, bool one_color) {
  constexpr long long kMin = 480;  // MIN_PIPELINE_WIDTH_TORUS: 2 torus packets of 240 B
  ColorPlan p;
  std::vector<Color> all = rect_colors(box);
  long long ideal = one_color ? 1 : static_cast<long long>(all.size());
  const long long per = bytes / ideal;
  p.pipeline_width = per > kMin * 256   ? 32 * kMin
                     : per > kMin * 128 ? 16 * kMin
                     : per > kMin * 32  ? 4 * kMin
                     : per > kMin * 8   ? 2 * kMin
                                        : kMin;
  if (bytes < ideal * p.pipeline_width) ideal = std::max(1LL, bytes / p.pipeline_width);
  p.colors.assign(all.begin(), all.begin() + ideal);
  const long long aligned = (bytes / ideal) & ~0xFLL;
  long long at = 0;
  for (long long c = 0; c < ideal; ++c) {
    const long long n = c + 1 < ideal ? aligned : bytes - aligned * (ideal - 1);
    p.offset.push_back(at);
    p.bytes.push_back(n);
    at += n;
  }
  return p;
}

int hops_along(int from, int to, int dir, int ring) {
  int h = (to - from) * dir;
  if (ring > 0) h = ((h % ring) + ring) % ring;
  return h;
}

namespace {

// lineBcastStep: the line broadcasts of a node along `axis`, color direction `dir`.
void line_step(const Box& box, const bool wraps[kAxes], const Coords& me, int axis, int dir, std::vector<Line>& out) {
  const int lo = box.lo[axis], hi = box.hi[axis], n = box.extent(axis);
  if (n <= 1) return;
  auto line_to = [&](int far_coord, int d) {
    Line l;
    l.axis = axis;
    l.dir = d;
    l.far = me;
    l.far[axis] = far_coord;
    Coords p = me;
    for (int k = 1;; ++k) {
      int c = me[axis] + d * k;
      if (wraps[axis]) c = lo + (((c - lo) % n) + n) % n;
      if (c == far_coord) break;
      p[axis] = c;
      l.passed.push_back(p);
    }
    out.push_back(l);
  };
  if (wraps[axis]) {  // the whole ring in the color's direction, ending next to the sender
    line_to(dir > 0 ? (me[axis] == lo ? hi : me[axis] - 1) : (me[axis] == hi ? lo : me[axis] + 1), dir);
    return;
  }
  if (me[axis] < hi) line_to(hi, +1);  // a mesh: towards both ends of the box
  if (me[axis] > lo) line_to(lo, -1);
}

}  // namespace

Role rect_role(const Box& box, const bool wraps[kAxes], const Coords& root, const Coords& me, Color color) {
  Role role;
  if (me[3] != root[3]) return role;  // NODE_SET_T: receives from the node's root-t rank only
  const int x = color.axis, y = (x + 1) % kAxes, z = (x + 2) % kAxes, d = color.dir;
  // The face coordinate on the primary axis: the far end of the box from the root.
  const int f = d > 0 ? (root[x] < box.hi[x] ? box.hi[x] : box.lo[x]) : (root[x] < box.hi[x] ? box.lo[x] : box.hi[x]);
  const bool is_root = me[0] == root[0] && me[1] == root[1] && me[2] == root[2];
  const bool on_face = me[x] == f;
  const bool on_axis = me[y] == root[y] && me[z] == root[z];
  const bool on_perp = on_face && me[z] == root[z];
  if (is_root) {
    line_step(box, wraps, me, x, d, role.lines);  // NODE_SET_A
    if (f == root[x]) {                           // NODE_SET_AB: the root is its own face node
      line_step(box, wraps, me, y, d, role.lines);
      line_step(box, wraps, me, z, d, role.lines);
    }
  } else if (on_axis) {
    if (on_face) {  // NODE_SET_B
      line_step(box, wraps, me, y, d, role.lines);
      line_step(box, wraps, me, z, d, role.lines);
    }  // NODE_SET_C: receives only
  } else if (on_perp) {  // NODE_SET_D
    line_step(box, wraps, me, z, d, role.lines);
    line_step(box, wraps, me, x, -d, role.lines);
  } else if (on_face) {  // NODE_SET_E
    line_step(box, wraps, me, x, -d, role.lines);
  }  // NODE_SET_F: receives only
  for (int t = box.lo[3]; t <= box.hi[3]; ++t)
    if (t != me[3]) {
      Coords p = me;
      p[3] = t;
      role.local.push_back(p);
    }
  return role;
}

}  // namespace hympi_sim::dcmf
