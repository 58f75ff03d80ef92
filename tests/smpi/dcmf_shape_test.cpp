// Unit test of BG/P's DCMF broadcast rule (apps/smpi/glue/dcmf_shape.cpp), no MPI, no
// SimGrid: communicator shapes of SUMMA/HSUMMA on the thesis' 2048-core torus under both
// placements, MPIDO_Bcast's choice around its size thresholds, the colors, and that every
// rectangle schedule reaches each rank of its box exactly once.
#include "dcmf_shape.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace hympi_sim::dcmf;

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

struct Partition {
  int dims[3];
  int cores;
  bool xyzt;  // BG/P's XYZT mapping (rank r on node r mod nodes) or block (TXYZ: r / cores)
  int nodes() const { return dims[0] * dims[1] * dims[2]; }
  Coords of(int r) const {  // make_platform.py's node_coords: X fastest
    const int node = xyzt ? r % nodes() : r / cores, t = xyzt ? r / nodes() : r % cores;
    Coords c;
    c[0] = node % dims[0];
    c[1] = node / dims[0] % dims[1];
    c[2] = node / (dims[0] * dims[1]);
    c[3] = t;
    return c;
  }
  std::vector<Coords> of(const std::vector<int>& ranks) const {
    std::vector<Coords> v;
    for (int r : ranks) v.push_back(of(r));
    return v;
  }
};

Shape shape_of(const Partition& p, const std::vector<int>& ranks, int world) { return classify(p.of(ranks), world).shape(); }

// SUMMA on a P x Q grid, row-major ranks: row i, column j; HSUMMA's outer row communicator of
// an I x J group grid: row i, the same column inside its group, one rank per group column.
std::vector<int> row(int Q, int i) {
  std::vector<int> v;
  for (int j = 0; j < Q; ++j) v.push_back(i * Q + j);
  return v;
}
std::vector<int> column(int P, int Q, int j) {
  std::vector<int> v;
  for (int i = 0; i < P; ++i) v.push_back(i * Q + j);
  return v;
}
std::vector<int> outer_row(int Q, int J, int i, int jj) {
  std::vector<int> v;
  for (int g = 0; g < J; ++g) v.push_back(i * Q + g * (Q / J) + jj);
  return v;
}

void test_shapes() {
  const int world = 2048, P = 32, Q = 64;  // run-sweep.sh's grid for 2048 ranks: 32 x 64
  const Partition xyzt{{8, 8, 8}, 4, true}, block{{8, 8, 8}, 4, false};
  for (int i : {0, 5, 31}) check(shape_of(xyzt, row(Q, i), world) == Shape::rect, "xyzt: SUMMA row " + std::to_string(i) + " is RECT");
  for (int j : {0, 17, 63})
    check(shape_of(xyzt, column(P, Q, j), world) == Shape::rect, "xyzt: SUMMA column " + std::to_string(j) + " is RECT");
  // HSUMMA, G = 16 as 4 x 4 groups (8 x 16 ranks each): the outer row groups are strided.
  for (int jj : {0, 9}) {
    std::vector<int> outer = outer_row(Q, 4, 3, jj);
    check(shape_of(xyzt, outer, world) == Shape::irreg, "xyzt: HSUMMA G=16 outer row is IRREG");
    check(shape_of(block, outer, world) == Shape::irreg, "block: HSUMMA G=16 outer row is IRREG");
  }
  // Block placement (a node's 4 ranks consecutive): rows fill 8 x 2 nodes x 4 cores; a column
  // has one core of nodes 16 apart: a 1 x 7 x 8 x 1 box holding 32 ranks.
  check(shape_of(block, row(Q, 7), world) == Shape::rect, "block: SUMMA row is RECT");
  check(shape_of(block, column(P, Q, 5), world) == Shape::irreg, "block: SUMMA column is IRREG");
  CommShape col = classify(block.of(column(P, Q, 5)), world);
  check(col.box.extent(1) == 7 && col.box.extent(2) == 8 && col.box.volume() == 56, "block: column box 1x7x8x1");
  // The world: the collective network's case, and its box is filled.
  std::vector<int> all;
  for (int r = 0; r < world; ++r) all.push_back(r);
  CommShape w = classify(xyzt.of(all), world);
  check(w.shape() == Shape::world && w.filled, "the world is WORLD and filled");
  // A box that is not filled is IRREG; the same ranks plus the missing corner are RECT.
  std::vector<Coords> l = {Coords{{0, 0, 0, 0}}, Coords{{1, 0, 0, 0}}, Coords{{0, 1, 0, 0}}};
  check(classify(l, 64).shape() == Shape::irreg, "an L of three nodes is IRREG");
  l.push_back(Coords{{1, 1, 0, 0}});
  check(classify(l, 64).shape() == Shape::rect, "a filled 2 x 2 is RECT");
  // 6142 ranks (the thesis' hierarchical broadcast): the world, the last node half full.
  check(!classify(Box{Coords{{0, 0, 0, 0}}, Coords{{7, 11, 15, 3}}}, 6142, 6142).filled, "6142 ranks: box not filled");
}

void test_selection() {
  const CommShape rect = classify(Box{Coords{{0, 0, 0, 0}}, Coords{{7, 7, 0, 0}}}, 64, 2048);
  const CommShape irreg = classify(Box{Coords{{0, 0, 0, 0}}, Coords{{7, 7, 0, 0}}}, 60, 2048);
  const CommShape world_part = classify(Box{Coords{{0, 0, 0, 0}}, Coords{{7, 11, 15, 3}}}, 6142, 6142);
  const struct {
    const CommShape* s;
    long long bytes;
    Algorithm want;
  } cases[] = {
      {&rect, 1, Algorithm::rect_async},           {&rect, 128, Algorithm::rect_async},
      {&rect, 129, Algorithm::rect_singleth},      {&rect, 1024, Algorithm::rect_singleth},
      {&rect, 1025, Algorithm::rect_singleth},     {&rect, 8192, Algorithm::rect_singleth},
      {&rect, 8193, Algorithm::rect_dput},         {&rect, 65536, Algorithm::rect_dput},
      {&rect, 65537, Algorithm::rect_dput},        {&rect, 1 << 20, Algorithm::rect_dput},
      {&irreg, 1024, Algorithm::binom_async},      {&irreg, 8192, Algorithm::binom_async},
      {&irreg, 8193, Algorithm::binom_singleth},   {&irreg, 1 << 20, Algorithm::binom_singleth},
      {&world_part, 1 << 19, Algorithm::binom_singleth},
  };
  for (const auto& c : cases)
    check(select(*c.s, c.bytes, 64, false) == c.want,
          std::string(name(c.s->shape())) + " " + std::to_string(c.bytes) + " B -> " + name(c.want) + " (got " +
              name(select(*c.s, c.bytes, 64, false)) + ")");
  check(select(world_part, 1 << 19, 6142, true) == Algorithm::tree, "world, not filled, tree modelled: tree");
  check(select(world_part, 4096, 6142, true) == Algorithm::tree, "world, small, tree modelled: tree");
  check(select(rect, 1 << 20, 3, false) == Algorithm::mpich, "3 ranks: MPICH's own");
}

void test_colors() {
  Box b{Coords{{0, 0, 0, 0}}, Coords{{3, 1, 1, 3}}};  // extents x 4, y 2, z 2
  std::vector<Color> c = rect_colors(b);
  check(c.size() == 3 && c[0].axis == 1 && c[1].axis == 2 && c[2].axis == 0, "colors by increasing extent: y, z, x");
  check(rect_colors(Box{Coords{{0, 0, 0, 0}}, Coords{{7, 7, 0, 0}}}).size() == 2, "an 8 x 8 plane: 2 colors");
  check(rect_colors(Box{Coords{{2, 3, 0, 0}}, Coords{{2, 3, 7, 3}}}).size() == 1, "a z line x 4 cores: 1 color");
  ColorPlan p = plan_colors(b, 1 << 20, false);
  check(p.colors.size() == 3 && p.pipeline_width == 15360, "1 MiB: 3 colors, 15360 B pipeline width");
  check(p.bytes[0] == 349520 && p.bytes[1] == 349520 && p.bytes[2] == 349536 && p.offset[2] == 699040,
        "1 MiB split 349520 + 349520 + 349536");
  check(plan_colors(b, 1 << 20, true).colors.size() == 1, "the one-color (async) protocol");
  ColorPlan small = plan_colors(b, 1000, false);
  check(small.colors.size() == 2 && small.pipeline_width == 480, "1000 B: 480 B width, 2 colors");
}

// Every rectangle schedule: each node of the box with the root's t receives the data exactly
// once (as a line's far node or passed on the way), only from a node that already has it, and
// every line stays in the box; every other rank gets it from its node's root-t rank.
void test_schedule_coverage() {
  const Box boxes[] = {Box{Coords{{0, 0, 0, 0}}, Coords{{3, 2, 1, 3}}}, Box{Coords{{2, 1, 0, 0}}, Coords{{2, 4, 3, 1}}},
                       Box{Coords{{0, 0, 0, 0}}, Coords{{7, 7, 0, 0}}}, Box{Coords{{0, 0, 0, 0}}, Coords{{4, 0, 0, 3}}}};
  for (const Box& box : boxes)
    for (bool wrap : {false, true}) {
      const bool wraps[kAxes] = {wrap, wrap, wrap};
      for (int rx = box.lo[0]; rx <= box.hi[0]; ++rx)
        for (int ry = box.lo[1]; ry <= box.hi[1]; ++ry)
          for (int rz = box.lo[2]; rz <= box.hi[2]; ++rz) {
            Coords root{{rx, ry, rz, box.hi[3]}};
            for (Color color : rect_colors(box)) {
              std::map<std::string, int> got;
              std::set<std::string> has = {root.str()};
              std::vector<Coords> todo = {root};
              bool ok = true;
              while (!todo.empty()) {
                Coords me = todo.back();
                todo.pop_back();
                for (const Line& l : rect_role(box, wraps, root, me, color).lines) {
                  std::vector<Coords> reached = l.passed;
                  reached.push_back(l.far);
                  for (const Coords& p : reached) {
                    ok = ok && box.contains(p);
                    if (++got[p.str()] == 1 && has.insert(p.str()).second) todo.push_back(p);
                  }
                }
              }
              long long nodes = box.volume() / box.extent(3);
              ok = ok && static_cast<long long>(has.size()) == nodes && got.count(root.str()) == 0;
              for (const auto& [k, n] : got) ok = ok && n == 1;
              Role r = rect_role(box, wraps, root, root, color);
              ok = ok && static_cast<int>(r.local.size()) == box.extent(3) - 1;
              Coords other = root;
              other[3] = box.lo[3];
              ok = ok && (box.extent(3) == 1 || rect_role(box, wraps, root, other, color).lines.empty());
              check(ok, "rectangle schedule covers box " + box.lo.str() + "-" + box.hi.str() + (wrap ? " torus" : " mesh") +
                            " root " + root.str() + " color axis " + std::to_string(color.axis));
            }
          }
    }
  // A mesh line from the middle goes both ways; a torus line goes once round in the color's direction.
  const Box line{Coords{{0, 0, 0, 0}}, Coords{{7, 0, 0, 0}}};
  const bool mesh[kAxes] = {false, false, false}, torus[kAxes] = {true, false, false};
  Role m = rect_role(line, mesh, Coords{{3, 0, 0, 0}}, Coords{{3, 0, 0, 0}}, Color{0, +1});
  check(m.lines.size() == 2 && m.lines[0].far[0] == 7 && m.lines[0].passed.size() == 3 && m.lines[1].far[0] == 0 &&
            m.lines[1].passed.size() == 2,
        "mesh line from x=3: to x=7 passing 3, to x=0 passing 2");
  Role t = rect_role(line, torus, Coords{{3, 0, 0, 0}}, Coords{{3, 0, 0, 0}}, Color{0, +1});
  check(t.lines.size() == 1 && t.lines[0].far[0] == 2 && t.lines[0].passed.size() == 6 && t.lines[0].dir == +1,
        "torus line from x=3: once round to x=2 passing 6");
  check(hops_along(3, 2, +1, 8) == 7 && hops_along(3, 7, +1, 0) == 4 && hops_along(3, 0, -1, 0) == 3, "hops along a line");
}

}  // namespace

int main() {
  test_shapes();
  test_selection();
  test_colors();
  test_schedule_coverage();
  if (failures) {
    std::printf("dcmf_shape_test: %d failure(s)\n", failures);
    return 1;
  }
  std::printf("dcmf_shape_test: all passed\n");
  return 0;
}
