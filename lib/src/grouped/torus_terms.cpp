// The torus terms of groups = auto's closed form (torus_terms.hpp). Each is the
// mechanism a simulated miss of the torus-blind form showed (issue 44, BG/P 2048
// ranks, 64 KiB), written as a closed form of the platform's figures, not fitted.
#include "grouped/torus_terms.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "grouped/grouped.hpp"

namespace hympi::detail {

bool parse_torus(const char* text, TorusShape& out) {
  int x = 0, y = 0, z = 0, used = 0;
  if (!text || std::sscanf(text, "%dx%dx%d%n", &x, &y, &z, &used) != 3 || x < 1 || y < 1 || z < 1) return false;
  const char* rest = text + used;
  if (*rest != '\0' && std::strcmp(rest, ":mesh") != 0) return false;
  out.dims = {x, y, z};
  out.mesh = *rest != '\0';
  return true;
}

double exchange_link_load(const TorusShape& torus, std::int64_t stride, std::int64_t distance) {
  const std::int64_t c = std::max(1, torus.cores), ranks_apart = distance * stride;
  if (ranks_apart < c) return 0;  // partners in one node (aligned members)
  const std::int64_t per_node = stride < c ? c / stride : 1;  // members on a node, all sending at once
  const std::int64_t node_stride = stride >= c ? stride / c : 1, nodes_apart = ranks_apart / c;
  double load = 1;
  std::int64_t lower = 1;  // nodes per step along this dimension
  for (int a = 0; a < 3; ++a) {
    const std::int64_t len = torus.dims[static_cast<std::size_t>(a)];
    const std::int64_t h = nodes_apart / lower % len;
    if (h != 0) {
      const std::int64_t hops = torus.mesh ? h : std::min(h, len - h);
      // Members every `spacing` nodes along this dimension: a link carries the flows of
      // the members within `hops` before it (all of them when every node is a member).
      const std::int64_t spacing = node_stride % lower == 0 ? std::max<std::int64_t>(1, node_stride / lower) : 1;
      load = std::max(load, static_cast<double>(per_node) * std::max(1.0, static_cast<double>(hops) / spacing));
    }
    lower *= len;
  }
  return load;
}

Box box_of(const TorusShape& torus, std::int64_t first, std::int64_t count, double stride) {
  const int c = std::max(1, torus.cores);
  std::array<int, 4> lo{}, hi{};
  lo.fill(1 << 30);
  hi.fill(-1);
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t r = first + static_cast<std::int64_t>(std::ceil(static_cast<double>(i) * stride - 1e-9));
    const std::int64_t node = r / c;
    const std::array<int, 4> at{static_cast<int>(node % torus.dims[0]),
                                static_cast<int>(node / torus.dims[0] % torus.dims[1]),
                                static_cast<int>(node / (std::int64_t{torus.dims[0]} * torus.dims[1])),
                                static_cast<int>(r % c)};
    for (std::size_t a = 0; a < 4; ++a) lo[a] = std::min(lo[a], at[a]), hi[a] = std::max(hi[a], at[a]);
  }
  Box box;
  std::int64_t volume = 1;
  for (std::size_t a = 0; a < 4; ++a) {
    box.extent[a] = count > 0 ? hi[a] - lo[a] + 1 : 1;
    volume *= box.extent[a];
  }
  for (std::size_t a = 0; a < 3; ++a) box.wraps[a] = !torus.mesh && box.extent[a] == torus.dims[a];
  box.filled = volume == count;
  return box;
}

double rectangle_seconds(const Box& box, double bytes, const ModelMachine& m) {
  constexpr double kMin = 480;  // DCMF's MIN_PIPELINE_WIDTH_TORUS: two torus packets
  int axes = 0, primary = -1;
  double depth = 0;  // store-and-forward stretches a chunk crosses: every axis's lines, then the face's back-fill
  auto stretches = [&](int a) {
    const double len = box.extent[static_cast<std::size_t>(a)];
    // On a wrapping dimension DCMF cuts a line into stretches of (len - 1) / 2 hops.
    return box.wraps[static_cast<std::size_t>(a)] ? std::ceil((len - 1) / std::max(1.0, std::floor((len - 1) / 2))) : 1.0;
  };
  for (int a = 0; a < 3; ++a)
    if (box.extent[static_cast<std::size_t>(a)] > 1) {
      ++axes, depth += stretches(a);
      if (primary < 0 || box.extent[static_cast<std::size_t>(a)] < box.extent[static_cast<std::size_t>(primary)])
        primary = a;
    }
  if (axes > 1) depth += stretches(primary);
  // Colors and DCMF's pipeline width (dcmf_shape.cpp plan_colors).
  double colors = bytes <= 128 ? 1 : std::max(1, axes);
  const double per = std::floor(bytes / colors);
  const double width = per > kMin * 256 ? 32 * kMin : per > kMin * 128 ? 16 * kMin : per > kMin * 32 ? 4 * kMin
                       : per > kMin * 8 ? 2 * kMin : kMin;
  if (bytes < colors * width) colors = std::max(1.0, std::floor(bytes / width));
  const double chunk = std::min(width, bytes / colors), chunks = std::ceil(bytes / colors / chunk);
  const double locals = box.extent[3] - 1, send = m.alpha / 2, recv = m.alpha / 2;
  // Per chunk, the node's actor: per color a line posted and a chunk taken, and a copy
  // posted to each other rank of the node; the links of a color carry its chunks; the
  // node's copies run at one core's rate each.
  const double actor = colors * ((axes > 0 ? send + recv : 0) + locals * m.shm_alpha);
  const double step = std::max({axes > 0 ? chunk * m.beta : 0.0, locals > 0 ? chunk * m.shm_beta : 0.0, actor});
  const double fill = depth * (chunk * m.beta + send) + (axes > 0 ? recv : 0) +
                      (locals > 0 ? m.shm_alpha + chunk * m.shm_beta : 0);
  return (chunks - 1) * step + fill;
}

}  // namespace hympi::detail
