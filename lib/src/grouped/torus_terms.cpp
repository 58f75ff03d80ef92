// The torus terms of groups = auto's closed form (torus_terms.hpp). Each is the
// mechanism a simulated miss of the torus-blind form showed (issue 44, BG/P 2048
// ranks, 64 KiB), written as a closed form of the platform's figures, not fitted.
#include "grouped/torus_terms.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "grouped/grouped.hpp"

namespace hympi::detail {

namespace {

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A positive decimal of at most 5 digits at *text (no sign, no space), advancing it.
bool read_dim(const char*& text, int& out) {
  if (!std::isdigit(static_cast<unsigned char>(*text))) return false;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end - text > 5 || v < 1 || v > 65536) return false;
  out = static_cast<int>(v);
  text = end;
  return true;
}

// The links of every flow of a round, each flow a difference per line (+1 where a
// stretch of its route starts, -1 past its end), so a flow costs a few additions
// whatever its length; max_load() sums every line up once. Index: node * 6 +
// dimension * 2 + (+ way), a link named by the node it leaves.
class LinkLoads {
 public:
  explicit LinkLoads(const TorusShape& t)
      : t_(t), step_{1, t.dims[0], std::int64_t{t.dims[0]} * t.dims[1]},
        diff_(static_cast<std::size_t>(std::int64_t{t.dims[0]} * t.dims[1] * t.dims[2] * 6), 0) {}

  // Node a -> node b, dimension order, the shorter way round (ties the + way).
  // 32-bit arithmetic and no modulo but the coordinates': the loop runs once per flow, up to
  // 2^23 flows per round on the largest torus (nodes < 2^22 fit).
  void route(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t X = static_cast<std::uint32_t>(t_.dims[0]), Y = static_cast<std::uint32_t>(t_.dims[1]);
    const std::uint32_t ra = a / X, rb = b / X;
    std::int64_t at[3] = {a - ra * X, ra % Y, ra / Y};
    const std::int64_t to[3] = {b - rb * X, rb % Y, rb / Y};
    for (int d = 0; d < 3; ++d) {
      const std::int64_t len = t_.dims[static_cast<std::size_t>(d)];
      const std::int64_t up = to[d] >= at[d] ? to[d] - at[d] : to[d] - at[d] + len;  // hops the + way round
      bool plus = to[d] > at[d];
      std::int64_t hops = std::llabs(to[d] - at[d]);
      if (!t_.mesh && up != 0) plus = up <= len - up, hops = std::min(up, len - up);
      if (hops > 0) {
        const std::int64_t base = at[0] + step_[1] * at[1] + step_[2] * at[2] - step_[d] * at[d];
        // The links left from coordinates [first, first + hops) (mod len).
        const std::int64_t first = plus ? at[d] : at[d] - hops + 1 + (at[d] - hops + 1 < 0 ? len : 0);
        add(base, d, plus, first, std::min(len, first + hops));
        if (first + hops > len) add(base, d, plus, 0, first + hops - len);
      }
      at[d] = to[d];
    }
  }

  // The busiest link's flows.
  int max_load() {
    const std::int64_t X = t_.dims[0], Y = t_.dims[1], Z = t_.dims[2];
    int most = 0;
    for (std::int64_t z = 0; z < Z; ++z)
      for (std::int64_t y = 0; y < Y; ++y)
        for (std::int64_t x = 0; x < X; ++x) {
          const std::int64_t n = x + X * (y + Y * z);
          const std::int64_t before[3] = {x > 0 ? n - 1 : -1, y > 0 ? n - X : -1, z > 0 ? n - X * Y : -1};
          for (int d = 0; d < 3; ++d)
            for (int way = 0; way < 2; ++way) {
              int& here = diff_[static_cast<std::size_t>(n * 6 + d * 2 + way)];
              if (before[d] >= 0) here += diff_[static_cast<std::size_t>(before[d] * 6 + d * 2 + way)];
              most = std::max(most, here);
            }
        }
    return most;
  }

 private:
  void add(std::int64_t base, int d, bool plus, std::int64_t from, std::int64_t to) {
    const std::int64_t way = plus ? 1 : 0;
    diff_[static_cast<std::size_t>((base + step_[d] * from) * 6 + d * 2 + way)] += 1;
    if (to < t_.dims[static_cast<std::size_t>(d)]) diff_[static_cast<std::size_t>((base + step_[d] * to) * 6 + d * 2 + way)] -= 1;
  }

  const TorusShape& t_;
  std::int64_t step_[3];
  std::vector<int> diff_;
};

// Every flow of the round routed; remembered per process (a shape's load does not depend on
// the bytes, and every object of that size asks again).
double routed_load(const TorusShape& t, const Members& level, std::int64_t distance) {
  using Key = std::array<std::int64_t, 11>;
  static std::mutex lock;
  static std::map<Key, double> known;
  const Key key{t.dims[0], t.dims[1], t.dims[2], t.mesh, t.cores, level.count, level.num, level.den,
                level.first, level.shift, distance};
  {
    std::lock_guard<std::mutex> hold(lock);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  const auto c = static_cast<std::uint32_t>(std::max(1, t.cores));
  // Member i's node (Members::rank without its modulo; ranks < 2^32 as nodes x cores).
  const std::int64_t shift = level.shift % level.count;
  const auto node = [&](std::int64_t i) {
    std::int64_t w = i + shift;
    if (w >= level.count) w -= level.count;
    const std::int64_t r = level.first + (level.den == 1 ? w * level.num : (w * level.num + level.den - 1) / level.den);
    return static_cast<std::uint32_t>(r) / c;
  };
  LinkLoads loads(t);
  for (std::int64_t i = 0; i < level.count; ++i) {
    const std::int64_t j = i ^ distance;
    if (j >= level.count) continue;
    const std::uint32_t a = node(i), b = node(j);
    if (a != b) loads.route(a, b);
  }
  const int most = loads.max_load();
  std::lock_guard<std::mutex> hold(lock);
  known.emplace(key, most);
  return most;
}

}  // namespace

bool TorusShape::fits(std::int64_t ranks) const {
  return known() && ranks <= std::int64_t{dims[0]} * dims[1] * dims[2] * std::max(1, cores);
}

bool parse_torus(const char* text, TorusShape& out) {
  if (!text) return false;
  int d[3] = {0, 0, 0};
  for (int a = 0; a < 3; ++a) {
    if (a > 0 && *text++ != 'x') return false;
    if (!read_dim(text, d[a])) return false;
  }
  if (*text != '\0' && std::strcmp(text, ":mesh") != 0) return false;
  if (std::int64_t{d[0]} * d[1] * d[2] > (std::int64_t{1} << 22)) return false;
  out.dims = {d[0], d[1], d[2]};
  out.mesh = *text != '\0';
  return true;
}

double exchange_link_load(const TorusShape& torus, const Members& level, std::int64_t distance) {
  const std::int64_t c = std::max(1, torus.cores), count = level.count, num = level.num, den = level.den;
  // The closed form's shapes: member i on node first / c + (i / m) * s, m members on each
  // node (s = 1) or one every s nodes (m = 1), m and s powers of two, any ranks per node
  // (the leaders of G groups of 3-rank nodes, routed one by one, took a minute on 2^22
  // nodes). m = c den / num: member i = q m + r is rank q c + ceil(r c / m), on node q.
  std::int64_t m = 0, s = 0;
  if (num % den == 0 && num / den >= c && (num / den) % c == 0) m = 1, s = num / den / c;
  else if (num >= den && (c * den) % num == 0) m = c * den / num, s = 1;
  const bool regular = level.shift == 0 && power_of_two(m) && power_of_two(s) && power_of_two(count) &&
                       level.first % c == 0 && (level.first / c) % (std::max<std::int64_t>(1, count / m) * s) == 0 &&
                       power_of_two(torus.dims[0]) && power_of_two(torus.dims[1]) && power_of_two(torus.dims[2]);
  if (!regular) return routed_load(torus, level, distance);
  // Power-of-two shapes: the partner differs in one node coordinate by a power of two.
  if (distance < m) return 0;  // partners in one node
  const std::int64_t per_node = m, node_stride = s, nodes_apart = distance / m * s;  // per_node: all sending at once
  double load = 1;
  std::int64_t lower = 1;  // nodes per step along this dimension
  for (std::size_t a = 0; a < 3; ++a) {
    const std::int64_t len = torus.dims[a];
    const std::int64_t h = nodes_apart / lower % len;
    if (h != 0) {
      const std::int64_t hops = torus.mesh ? h : std::min(h, len - h);
      // Members every `spacing` nodes along this dimension: a link carries the flows of
      // the members within `hops` before it (all of them when every node is a member).
      const std::int64_t spacing = std::max<std::int64_t>(1, node_stride / lower);
      load = std::max(load, static_cast<double>(per_node) * std::max(1.0, static_cast<double>(hops) / spacing));
    }
    lower *= len;
  }
  return load;
}

namespace {

Box finish(const TorusShape& torus, const std::array<int, 4>& lo, const std::array<int, 4>& hi, std::int64_t count) {
  Box box;
  std::int64_t volume = 1;
  for (std::size_t a = 0; a < 4; ++a) {
    box.extent[a] = count > 0 ? hi[a] - lo[a] + 1 : 1;
    volume *= box.extent[a];
  }
  for (std::size_t a = 0; a < 3; ++a) {
    box.wraps[a] = !torus.mesh && box.extent[a] == torus.dims[a];
    box.partition[a] = torus.dims[a];
  }
  box.mesh = torus.mesh;
  box.filled = count > 0 && volume == count;
  return box;
}

}  // namespace

Box box_of_range(const TorusShape& torus, std::int64_t first, std::int64_t count) {
  const std::int64_t c = std::max(1, torus.cores), X = torus.dims[0], Y = torus.dims[1];
  const std::int64_t last = first + std::max<std::int64_t>(count, 1) - 1, n0 = first / c, n1 = last / c;
  const std::int64_t r0 = n0 / X, r1 = n1 / X;  // rows of X nodes; planes of Y rows
  // Consecutive ranks: a coordinate spans its whole extent once the range crosses into the next row (plane, node).
  std::array<int, 4> lo{}, hi{};
  auto span = [&](std::size_t a, bool same, std::int64_t from, std::int64_t to, std::int64_t full) {
    lo[a] = static_cast<int>(same ? from : 0), hi[a] = static_cast<int>(same ? to : full - 1);
  };
  span(0, r0 == r1, n0 % X, n1 % X, X);
  span(1, r0 / Y == r1 / Y, r0 % Y, r1 % Y, Y);
  lo[2] = static_cast<int>(r0 / Y), hi[2] = static_cast<int>(r1 / Y);
  span(3, n0 == n1, first % c, last % c, c);
  return finish(torus, lo, hi, count);
}

Box box_of_ranks(const TorusShape& torus, const std::vector<std::int64_t>& ranks) {
  const std::int64_t c = std::max(1, torus.cores), X = torus.dims[0], Y = torus.dims[1];
  std::array<int, 4> lo{}, hi{};
  lo.fill(1 << 30);
  hi.fill(-1);
  for (std::int64_t r : ranks) {
    const std::int64_t node = r / c;
    const std::array<std::int64_t, 4> at{node % X, node / X % Y, node / (X * Y), r % c};
    for (std::size_t a = 0; a < 4; ++a)
      lo[a] = std::min(lo[a], static_cast<int>(at[a])), hi[a] = std::max(hi[a], static_cast<int>(at[a]));
  }
  return finish(torus, lo, hi, static_cast<std::int64_t>(ranks.size()));
}

double rectangle_seconds(const Box& box, double bytes, const ModelMachine& m) {
  constexpr double kMin = 480;  // DCMF's MIN_PIPELINE_WIDTH_TORUS: two torus packets
  if (bytes <= 0) return 0;
  int axes = 0;
  double depth = 0;  // store-and-forward stretches: every axis's lines, then the color's own back-fill
  std::vector<std::pair<int, double>> by_extent;  // (extent, stretches) of the axes of extent > 1
  for (std::size_t a = 0; a < 3; ++a) {
    const double len = box.extent[a];
    if (len <= 1) continue;
    // On a wrapping partition DCMF cuts a line into stretches of (partition - 1) / 2 hops.
    const double cut = box.mesh ? len - 1 : std::max(1.0, std::floor((box.partition[a] - 1) / 2.0));
    const double stretches = std::ceil((len - 1) / cut);
    ++axes, depth += stretches;
    by_extent.emplace_back(box.extent[a], stretches);
  }
  std::stable_sort(by_extent.begin(), by_extent.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  // Colors and DCMF's pipeline width (dcmf_shape.cpp plan_colors).
  double colors = bytes <= 128 ? 1 : std::max(1, axes);
  const double per = std::floor(bytes / colors);
  const double width = per > kMin * 256 ? 32 * kMin : per > kMin * 128 ? 16 * kMin : per > kMin * 32 ? 4 * kMin
                       : per > kMin * 8 ? 2 * kMin : kMin;
  if (bytes < colors * width) colors = std::max(1.0, std::floor(bytes / width));
  const double chunk = std::min(width, bytes / colors), chunks = std::ceil(bytes / colors / chunk);
  // The colors are the shortest axes first; the slowest back-fills along the longest of those.
  if (axes > 1) depth += by_extent[static_cast<std::size_t>(std::min<double>(colors, axes)) - 1].second;
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
