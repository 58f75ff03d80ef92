// groups = auto's torus terms (lib/src/grouped/torus_terms.hpp): the closed-form link
// load of a recursive-doubling round against every flow routed one by one (the plain
// reference: dimension order, the shorter way, ties the + way, as make_platform.py
// routes), communicator shapes, and the picks they change on the simulated BG/P.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "grouped/grouped.hpp"
#include "grouped/torus_terms.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"

namespace {

using hympi::detail::Box;
using hympi::detail::TorusShape;

TorusShape torus(int x, int y, int z, int cores, bool mesh = false) {
  TorusShape t;
  t.dims = {x, y, z};
  t.cores = cores;
  t.mesh = mesh;
  return t;
}

// Flows on the busiest directed link when member i (relative to the root: world rank
// first + ceil(((i + shift) % count) * num / den), i < count) sends to member i XOR distance,
// every flow routed hop by hop.
int routed_max_load(const TorusShape& t, std::int64_t count, std::int64_t num, std::int64_t den, std::int64_t distance,
                    std::int64_t first = 0, std::int64_t shift = 0) {
  std::map<std::tuple<std::int64_t, int, int>, int> load;  // (node, dimension, direction) -> flows
  const std::int64_t xy = std::int64_t{t.dims[0]} * t.dims[1];
  auto world = [&](std::int64_t i) { return first + static_cast<std::int64_t>(std::ceil(static_cast<double>((i + shift) % count) * num / den - 1e-9)); };
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t j = i ^ distance;
    if (j >= count) continue;
    const std::int64_t a = world(i) / t.cores, b = world(j) / t.cores;
    if (a == b) continue;
    std::int64_t at[3] = {a % t.dims[0], a / t.dims[0] % t.dims[1], a / xy};
    const std::int64_t to[3] = {b % t.dims[0], b / t.dims[0] % t.dims[1], b / xy};
    for (int d = 0; d < 3; ++d) {
      const std::int64_t len = t.dims[d];
      const std::int64_t up = ((to[d] - at[d]) % len + len) % len;  // hops the + way round
      int dir = to[d] > at[d] ? 1 : -1;
      std::int64_t hops = std::llabs(to[d] - at[d]);
      if (!t.mesh && up != 0) dir = up <= len - up ? 1 : -1, hops = std::min(up, len - up);
      for (std::int64_t h = 0; h < hops; ++h) {
        const std::int64_t node = at[0] + t.dims[0] * (at[1] + t.dims[1] * at[2]);
        ++load[{node, d, dir}];
        at[d] = ((at[d] + dir) % len + len) % len;
      }
    }
  }
  int most = 0;
  for (const auto& [link, n] : load) most = std::max(most, n);
  return most;
}

// The closed form on power-of-two shapes (every rank or every stride-th).
TEST(TorusTerms, ExchangeLoadIsTheRoutedLoad) {
  int checked = 0;
  for (const TorusShape& t : {torus(8, 8, 8, 4), torus(8, 8, 8, 1), torus(4, 4, 4, 2), torus(4, 8, 8, 4, true),
                              torus(2, 2, 4, 4, true), torus(16, 16, 16, 4)})
    for (std::int64_t stride : {1, 2, 4, 8, 16, 32, 64}) {
      const std::int64_t ranks = std::int64_t{t.dims[0]} * t.dims[1] * t.dims[2] * t.cores, count = ranks / stride;
      for (std::int64_t d = 1; d < count; d *= 2) {
        EXPECT_EQ(hympi::detail::exchange_link_load(t, {count, stride, 1}, d), routed_max_load(t, count, stride, 1, d))
            << t.dims[0] << "x" << t.dims[1] << "x" << t.dims[2] << (t.mesh ? " mesh" : "") << ", " << t.cores
            << " per node, stride " << stride << ", distance " << d;
        ++checked;
      }
    }
  EXPECT_GT(checked, 250);
}

// Any ranks per node (issue 54: 3 per node on 2^22 nodes took a minute routed one by one):
// members whole nodes apart, or m per node at fractional strides (3/2, 6/4), by the
// closed form, the same loads as every flow routed.
TEST(TorusTerms, ClosedFormForAnyRanksPerNode) {
  int checked = 0;
  for (const TorusShape& t : {torus(8, 8, 8, 3), torus(4, 8, 16, 6, true), torus(16, 4, 8, 3)})
    for (const auto& [num, den] : {std::pair<std::int64_t, std::int64_t>{3, 1}, {6, 1}, {12, 1}, {24, 1}, {3, 2},
                                   {6, 4}}) {
      const std::int64_t capacity = std::int64_t{t.dims[0]} * t.dims[1] * t.dims[2] * t.cores;
      for (std::int64_t count = 2; (count - 1) * num / den < capacity; count *= 2)
        for (std::int64_t d = 1; d < count; d *= 2) {
          EXPECT_EQ(hympi::detail::exchange_link_load(t, {count, num, den}, d), routed_max_load(t, count, num, den, d))
              << t.dims[0] << "x" << t.dims[1] << "x" << t.dims[2] << (t.mesh ? " mesh" : "") << ", " << t.cores
              << " per node, " << count << " members at " << num << "/" << den << ", distance " << d;
          ++checked;
        }
    }
  EXPECT_GT(checked, 500);
}

// Other shapes (the thesis' 1536-node 8 x 12 x 16 partition, 3 or 6 ranks per node, the leaders of
// 6142 / 64 groups at fractional strides): the library routes every flow; the same loads.
TEST(TorusTerms, ExchangeLoadOnIrregularShapes) {
  int checked = 0;
  for (const TorusShape& t : {torus(8, 12, 16, 4), torus(8, 12, 16, 4, true), torus(6, 6, 6, 3), torus(8, 8, 8, 6)})
    for (const auto& [count, num, den] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{4096, 1, 1},
                                          {64, 6142, 64}, {128, 6142, 128}, {512, 2048, 512}, {256, 5, 1}}) {
      const std::int64_t capacity = std::int64_t{t.dims[0]} * t.dims[1] * t.dims[2] * t.cores;
      if ((count - 1) * num / den >= capacity) continue;
      for (std::int64_t d = 1; d < count; d *= 2) {
        EXPECT_EQ(hympi::detail::exchange_link_load(t, {count, num, den}, d), routed_max_load(t, count, num, den, d))
            << t.dims[0] << "x" << t.dims[1] << "x" << t.dims[2] << (t.mesh ? " mesh" : "") << " " << count
            << " members at " << num << "/" << den << ", distance " << d;
        ++checked;
      }
    }
  EXPECT_GT(checked, 60);
  // A case the power-of-two closed form got wrong (16): 32 nodes apart is not one coordinate on 12 rows.
  EXPECT_EQ(hympi::detail::exchange_link_load(torus(8, 12, 16, 4, true), {4096}, 128), 32);
  // By hand: a ring of 6 nodes, one rank each, 4 members, distance 2: 0 -> 2 and 1 -> 3 the + way
  // share link 1 -> 2; 2 -> 0 and 3 -> 1 go the - way (4 hops + against 2 -); on a line of 6 the same.
  EXPECT_EQ(hympi::detail::exchange_link_load(torus(6, 1, 1, 1), {4}, 2), 2);
  EXPECT_EQ(hympi::detail::exchange_link_load(torus(6, 1, 1, 1, true), {4}, 2), 2);
  // Root 1 of 8 on 2 nodes of 4 (MPICH numbers ranks from the root): at distance 2 relative 1 <-> 3
  // is world 2 <-> 4 and relative 5 <-> 7 world 6 <-> 0, both over the one link each way; with
  // root 0 every distance-2 pair shares a node.
  EXPECT_EQ(hympi::detail::exchange_link_load(torus(2, 1, 1, 4, true), {8}, 2), 0);
  EXPECT_EQ(hympi::detail::exchange_link_load(torus(2, 1, 1, 4, true), {8, 1, 1, 0, 1}, 2), 2);
}

// Groups after the first (aligned: the closed form) and roots off a group's start (routed).
TEST(TorusTerms, ExchangeLoadOfShiftedMembers) {
  int checked = 0;
  const TorusShape t = torus(8, 8, 8, 4);
  for (std::int64_t size : {16, 64, 256})
    for (std::int64_t first : {std::int64_t{0}, size, 3 * size, 2048 - size})
      for (std::int64_t shift : {0, 1, 5}) {
        for (std::int64_t d = 1; d < size; d *= 2) {
          EXPECT_EQ(hympi::detail::exchange_link_load(t, {size, 1, 1, first, shift}, d),
                    routed_max_load(t, size, 1, 1, d, first, shift))
              << size << " from " << first << " shifted " << shift << ", distance " << d;
          ++checked;
        }
      }
  EXPECT_GT(checked, 100);
}

// box_of_range's constant-time arithmetic against the ranks' own bounding box.
TEST(TorusTerms, RangeBoxIsTheRanksBox) {
  int checked = 0;
  for (const TorusShape& t : {torus(8, 8, 8, 4), torus(8, 12, 16, 4), torus(4, 8, 8, 1, true), torus(6, 6, 6, 3)}) {
    const std::int64_t capacity = std::int64_t{t.dims[0]} * t.dims[1] * t.dims[2] * t.cores;
    for (std::int64_t first = 0; first < capacity; first += 37)
      for (std::int64_t count : {1, 2, 3, 4, 5, 12, 31, 32, 96, 200, 256, 1000}) {
        if (first + count > capacity) continue;
        std::vector<std::int64_t> ranks;
        for (std::int64_t r = first; r < first + count; ++r) ranks.push_back(r);
        const Box a = hympi::detail::box_of_range(t, first, count), b = hympi::detail::box_of_ranks(t, ranks);
        EXPECT_EQ(a.extent, b.extent) << first << "+" << count;
        EXPECT_EQ(a.filled, b.filled) << first << "+" << count;
        EXPECT_EQ(a.wraps, b.wraps) << first << "+" << count;
        ++checked;
      }
  }
  EXPECT_GT(checked, 1000);
}

TEST(TorusTerms, ShapesOfLevels) {
  const TorusShape bgp = torus(8, 8, 8, 4);
  auto leaders = [&](std::int64_t count, double stride) {
    std::vector<std::int64_t> r;
    for (std::int64_t i = 0; i < count; ++i) r.push_back(static_cast<std::int64_t>(std::ceil(i * stride - 1e-9)));
    return hympi::detail::box_of_ranks(bgp, r);
  };
  const Box world = hympi::detail::box_of_range(bgp, 0, 2048);
  EXPECT_TRUE(world.filled);
  EXPECT_EQ(world.extent[3], 4);
  EXPECT_TRUE(world.wraps[0] && world.wraps[1] && world.wraps[2]);
  const Box one_per_node = leaders(512, 4);  // one rank per node: the t = 0 box
  EXPECT_TRUE(one_per_node.filled);
  EXPECT_EQ(one_per_node.extent[3], 1);
  EXPECT_TRUE(leaders(64, 32).filled);    // a leader per x-line: the x = 0 plane
  EXPECT_FALSE(leaders(128, 16).filled);  // every other x: not a box
  EXPECT_TRUE(hympi::detail::box_of_range(bgp, 32, 32).filled);   // a group of 8 nodes on one x-line
  EXPECT_FALSE(hympi::detail::box_of_range(bgp, 2, 4).filled);    // ranks of two nodes, not whole
  EXPECT_TRUE(hympi::detail::box_of_range(bgp, 8, 4).one_node());
  EXPECT_EQ(hympi::detail::box_of_range(bgp, 8, 4).extent, (std::array<int, 4>{1, 1, 1, 4}));
  const Box odd = hympi::detail::box_of_range(torus(8, 12, 16, 4), 0, 6142);  // 1536 nodes, the last half full
  EXPECT_FALSE(odd.filled);
  EXPECT_TRUE(torus(8, 12, 16, 4).fits(6142));
  EXPECT_FALSE(bgp.fits(2049));
}

TEST(TorusTerms, ParseTorus) {
  TorusShape t;
  EXPECT_TRUE(hympi::detail::parse_torus("8x8x8", t));
  EXPECT_FALSE(t.mesh);
  EXPECT_TRUE(hympi::detail::parse_torus("4x8x8:mesh", t));
  EXPECT_TRUE(t.mesh);
  EXPECT_EQ(t.dims, (std::array<int, 3>{4, 8, 8}));
  for (const char* bad : {"", "8x8", "8x8x0", "8x8x8:ring", "8x8x8x2", "axbxc", "-8x8x8", " 8x8x8", "8x8x8 ",
                          "+8x8x8", "8x 8x8", "99999999999x8x8", "70000x1x1"})
    EXPECT_FALSE(hympi::detail::parse_torus(bad, t)) << bad;
  setenv("HYMPI_MODEL_TORUS", "8x8", 1);
  EXPECT_THROW(hympi::detail::model_machine(), hympi::Error);
  unsetenv("HYMPI_MODEL_TORUS");
}

// The rectangle's node actor posts a copy per other rank of the node and chunk: the same box
// with 4 ranks per node is slower than with 1 when chunks are small (64 KiB), and the links
// bound it when chunks are large.
TEST(TorusTerms, RectangleChargesTheNodesCopies) {
  hympi::detail::ModelMachine m;
  m.alpha = 3e-6, m.beta = 1 / 425e6, m.shm_alpha = 1e-6, m.shm_beta = 1 / 1.5e9;
  const Box four = hympi::detail::box_of_range(torus(8, 8, 8, 4), 0, 2048);
  const Box one = hympi::detail::box_of_range(torus(8, 8, 8, 1), 0, 512);
  EXPECT_GT(hympi::detail::rectangle_seconds(four, 65536, m), 1.2 * hympi::detail::rectangle_seconds(one, 65536, m));
  EXPECT_LT(hympi::detail::rectangle_seconds(four, 1 << 20, m), 1.02 * hympi::detail::rectangle_seconds(one, 1 << 20, m));
  // Three colors: about a third of the bytes through each color's links.
  EXPECT_LT(hympi::detail::rectangle_seconds(one, 1 << 20, m), 0.6 * (1 << 20) * m.beta);
  EXPECT_EQ(hympi::detail::rectangle_seconds(one, 0, m), 0);
}

void set_bgp(const char* rule, bool with_torus) {
  setenv("HYMPI_MODEL_ALPHA", "3e-6", 1);
  setenv("HYMPI_MODEL_BETA", "2.3529411764705882e-09", 1);
  setenv("HYMPI_MODEL_NODE_RANKS", "4", 1);
  setenv("HYMPI_MODEL_SHM_ALPHA", "1e-6", 1);
  setenv("HYMPI_MODEL_SHM_BETA", "6.666666666666667e-10", 1);
  setenv("HYMPI_MODEL_BCAST", rule, 1);
  if (with_torus) setenv("HYMPI_MODEL_TORUS", "8x8x8", 1);
  else unsetenv("HYMPI_MODEL_TORUS");
}

void unset_bgp() {
  for (const char* v : {"HYMPI_MODEL_ALPHA", "HYMPI_MODEL_BETA", "HYMPI_MODEL_NODE_RANKS", "HYMPI_MODEL_SHM_ALPHA",
                        "HYMPI_MODEL_SHM_BETA", "HYMPI_MODEL_BCAST", "HYMPI_MODEL_TORUS"})
    unsetenv(v);
}

// The simulated BG/P at 2048 ranks (results/simulated/bgp-hier-bcast-fidelity.csv): at 64 KiB
// G = 512 (a group per node) beat the flat broadcast 2.93x under MPICH's rule (its recursive
// doubling's last rounds put 16 flows on a link) and 1.64x under DCMF's (the world rectangle's
// nodes post 3 copies per chunk; the leaders fill the 8 x 8 x 8 box: a rectangle too). At 512 KiB
// and 1 MiB DCMF's flat rectangle won. Without the torus the form picked the flat broadcast at 64 KiB.
TEST(AutoGroups, TorusTermsOnBgp) {
  using hympi::detail::automatic_groups;
  set_bgp("mpich", true);
  EXPECT_EQ(automatic_groups(2048, 64 << 10), 512);
  EXPECT_EQ(automatic_groups(2048, 1 << 20), 512);
  set_bgp("dcmf", true);
  EXPECT_EQ(automatic_groups(2048, 64 << 10), 512);
  EXPECT_EQ(automatic_groups(2048, 512 << 10), 1);
  EXPECT_EQ(automatic_groups(2048, 1 << 20), 1);
  using hympi::detail::Placement;
  EXPECT_EQ(automatic_groups(2048, 64 << 10, Placement{true}), 1);         // nodes as units: torus-blind
  EXPECT_EQ(automatic_groups(2048, 64 << 10, Placement{false, false}), 1);  // not world ranks: torus-blind
  // Root 5 leads its group: the leaders are still one rank per node, but at t = 0 on every node
  // and t = 1 on node 1, a box of 8 x 8 x 8 x 2 they do not fill: DCMF's binomial tree, G = 512 loses.
  EXPECT_NE(automatic_groups(2048, 64 << 10, Placement{false, true, 5}), 512);
  EXPECT_EQ(automatic_groups(2048, 64 << 10, Placement{false, true, 4}), 512);  // a node's first rank: a box
  EXPECT_EQ(automatic_groups(4096, 64 << 10), automatic_groups(4096, 64 << 10, Placement{false, false}));  // too many
  set_bgp("mpich", true);
  const auto mm = hympi::detail::model_machine();
  // MPICH's flat broadcast from root 1: its first rounds leave the node (relative ranks).
  EXPECT_GT(hympi::detail::grouped_seconds(2048, 1, 64 << 10, mm, Placement{false, true, 1}),
            hympi::detail::grouped_seconds(2048, 1, 64 << 10, mm, Placement{false, true, 0}));
  set_bgp("dcmf", true);
  const auto m = hympi::detail::model_machine();
  EXPECT_EQ(hympi::detail::grouped_seconds(2048, 512, 0, m), 0);
  set_bgp("mpich", false);
  EXPECT_EQ(automatic_groups(2048, 64 << 10), 1);
  set_bgp("dcmf", false);
  EXPECT_EQ(automatic_groups(2048, 64 << 10), 1);
  unset_bgp();
}

}  // namespace

namespace {

// The machine a recorded prediction was made with (bench CSV groups_model): every variable, the
// numbers to the last digit (a row's model_s must be reproducible from it).
TEST(AutoGroups, ModelMachineString) {
  set_bgp("dcmf", true);
  const std::string text = hympi::grouped_model_machine();
  const auto m = hympi::detail::model_machine();
  auto number = [&](const char* key) {
    const auto at = text.find(std::string(key) + "=");
    return at == std::string::npos ? -1.0 : std::strtod(text.c_str() + at + std::strlen(key) + 1, nullptr);
  };
  EXPECT_EQ(number("alpha"), m.alpha) << text;  // to the last bit
  EXPECT_EQ(number("beta"), m.beta) << text;
  EXPECT_EQ(number("shm_alpha"), m.shm_alpha) << text;
  EXPECT_EQ(number("shm_beta"), m.shm_beta) << text;
  EXPECT_NE(text.find(";bcast=dcmf;node_ranks=4;"), std::string::npos) << text;
  EXPECT_NE(text.find(";torus=8x8x8"), std::string::npos) << text;
  setenv("HYMPI_MODEL_TORUS", "4x8x8:mesh", 1);
  EXPECT_NE(hympi::grouped_model_machine().find(";torus=4x8x8:mesh"), std::string::npos);
  unset_bgp();
  EXPECT_NE(hympi::grouped_model_machine().find("bcast=mpich;node_ranks=1;"), std::string::npos);
  EXPECT_NE(hympi::grouped_model_machine().find(";torus=none"), std::string::npos);
}

}  // namespace
