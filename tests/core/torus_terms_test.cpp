// groups = auto's torus terms (lib/src/grouped/torus_terms.hpp): the closed-form link
// load of a recursive-doubling round against every flow routed one by one (the plain
// reference: dimension order, the shorter way, ties the + way, as make_platform.py
// routes), communicator shapes, and the picks they change on the simulated BG/P.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <tuple>

#include "grouped/grouped.hpp"
#include "grouped/torus_terms.hpp"
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

// Flows on the busiest directed link when member i (rank i * stride, i < count) sends to
// member i XOR distance, every flow routed hop by hop.
int routed_max_load(const TorusShape& t, std::int64_t stride, std::int64_t count, std::int64_t distance) {
  std::map<std::tuple<std::int64_t, int, int>, int> load;  // (node, dimension, direction) -> flows
  const std::int64_t xy = std::int64_t{t.dims[0]} * t.dims[1];
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t a = i * stride / t.cores, b = (i ^ distance) * stride / t.cores;
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

TEST(TorusTerms, ExchangeLoadIsTheRoutedLoad) {
  int checked = 0;
  for (const TorusShape& t : {torus(8, 8, 8, 4), torus(8, 8, 8, 1), torus(4, 4, 4, 2), torus(4, 8, 8, 4, true),
                              torus(2, 2, 4, 4, true), torus(16, 16, 16, 4)})
    for (std::int64_t stride : {1, 2, 4, 8, 16, 32, 64}) {
      const std::int64_t ranks = std::int64_t{t.dims[0]} * t.dims[1] * t.dims[2] * t.cores, count = ranks / stride;
      for (std::int64_t d = 1; d < count; d *= 2) {
        const double load = hympi::detail::exchange_link_load(t, stride, d);
        const int routed = routed_max_load(t, stride, count, d);
        EXPECT_EQ(load, routed) << t.dims[0] << "x" << t.dims[1] << "x" << t.dims[2] << (t.mesh ? " mesh" : "")
                                << ", " << t.cores << " per node, stride " << stride << ", distance " << d;
        ++checked;
      }
    }
  EXPECT_GT(checked, 250);
}

TEST(TorusTerms, ShapesOfLevels) {
  const TorusShape bgp = torus(8, 8, 8, 4);
  const Box world = hympi::detail::box_of(bgp, 0, 2048, 1);
  EXPECT_TRUE(world.filled);
  EXPECT_EQ(world.extent[3], 4);
  EXPECT_TRUE(world.wraps[0] && world.wraps[1] && world.wraps[2]);
  const Box leaders = hympi::detail::box_of(bgp, 0, 512, 4);  // one rank per node: the t = 0 box
  EXPECT_TRUE(leaders.filled);
  EXPECT_EQ(leaders.extent[3], 1);
  EXPECT_TRUE(hympi::detail::box_of(bgp, 0, 64, 32).filled);     // a leader per x-line: the x = 0 plane
  EXPECT_FALSE(hympi::detail::box_of(bgp, 0, 128, 16).filled);   // every other x: not a box
  EXPECT_TRUE(hympi::detail::box_of(bgp, 32, 32, 1).filled);     // a group of 8 nodes on one x-line
  EXPECT_FALSE(hympi::detail::box_of(bgp, 2, 4, 1).filled);      // ranks of two nodes, not whole
  EXPECT_EQ(hympi::detail::box_of(bgp, 8, 4, 1).extent, (std::array<int, 4>{1, 1, 1, 4}));  // one node
  const Box odd = hympi::detail::box_of(torus(8, 12, 16, 4), 0, 6142, 1);  // the thesis' 6142: 1536 nodes, the last half full
  EXPECT_FALSE(odd.filled);
  // Balanced groups' leaders (rank ceil(g p / G)): 6142 / 64 = 95.97, not a box.
  EXPECT_FALSE(hympi::detail::box_of(torus(8, 12, 16, 4), 0, 64, 6142.0 / 64).filled);
}

TEST(TorusTerms, ParseTorus) {
  TorusShape t;
  EXPECT_TRUE(hympi::detail::parse_torus("8x8x8", t));
  EXPECT_FALSE(t.mesh);
  EXPECT_TRUE(hympi::detail::parse_torus("4x8x8:mesh", t));
  EXPECT_TRUE(t.mesh);
  EXPECT_EQ(t.dims, (std::array<int, 3>{4, 8, 8}));
  for (const char* bad : {"", "8x8", "8x8x0", "8x8x8:ring", "8x8x8x2", "axbxc", "-8x8x8"})
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
  const Box four = hympi::detail::box_of(torus(8, 8, 8, 4), 0, 2048, 1);
  const Box one = hympi::detail::box_of(torus(8, 8, 8, 4), 0, 512, 4);
  EXPECT_GT(hympi::detail::rectangle_seconds(four, 65536, m), 1.2 * hympi::detail::rectangle_seconds(one, 65536, m));
  EXPECT_LT(hympi::detail::rectangle_seconds(four, 1 << 20, m), 1.02 * hympi::detail::rectangle_seconds(one, 1 << 20, m));
  // Three colors: about a third of the bytes through each color's links.
  EXPECT_LT(hympi::detail::rectangle_seconds(one, 1 << 20, m), 0.6 * (1 << 20) * m.beta);
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
  EXPECT_EQ(automatic_groups(2048, 64 << 10, /*units_are_nodes=*/true), 1);  // nodes as units: torus-blind
  set_bgp("mpich", false);
  EXPECT_EQ(automatic_groups(2048, 64 << 10), 1);
  set_bgp("dcmf", false);
  EXPECT_EQ(automatic_groups(2048, 64 << 10), 1);
  unset_bgp();
}

}  // namespace
