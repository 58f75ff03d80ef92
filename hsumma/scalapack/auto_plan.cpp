#include "auto_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/hsumma/line_probe.hpp"
#include "hympi/topology.hpp"
#include "machine_probe.hpp"
#include "tuning_file.hpp"

namespace hympi::hsumma::scalapack {

namespace {

constexpr int kShapeValues = 9;          // 4 lines x (latency, per byte) + schedule
constexpr std::size_t kRemembered = 16;  // the model's choices kept per grid

std::int64_t power_of_two_above(std::int64_t x) {
  std::int64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

// Rank 0 looks the entries up, everyone learns which exist and their values.
std::vector<std::vector<double>> cached(MPI_Comm comm, const std::vector<std::string>& keys, int width) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  const std::string path = tuning_file_path();
  std::vector<double> flat(keys.size() * (width + 1), 0.0);  // per key: have, values
  if (rank == 0 && !path.empty())
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (const auto v = read_measured(path, keys[i]); v && static_cast<int>(v->size()) == width) {
        flat[i * (width + 1)] = 1;
        std::copy(v->begin(), v->end(), flat.begin() + i * (width + 1) + 1);
      }
  HYMPI_CHECK_MPI(MPI_Bcast(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, 0, comm));
  std::vector<std::vector<double>> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (flat[i * (width + 1)] == 1)
      out[i].assign(flat.begin() + i * (width + 1) + 1, flat.begin() + (i + 1) * (width + 1));
  return out;
}

void remember(MPI_Comm comm, const std::string& key, const std::vector<double>& values) {
  static bool warned = false;
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  const std::string path = tuning_file_path();
  if (rank != 0 || path.empty()) return;
  const std::string error = write_measured(path, key, values);
  if (!error.empty() && !warned)
    std::fprintf(stderr, "hympi pdgemm: tuning file not saved (%s); measuring again in every run\n", error.c_str()),
        warned = true;
}

// The measured shapes wanted, from the tuning file or probed (and stored).
std::vector<model::MeasuredShape> measured_shapes(const GridPos& pos, const LineProbe& pr,
                                                  const std::vector<std::pair<int, int>>& wanted) {
  int nodes = 0;
  if (pr.engine.bcast.policy == Policy::hybrid) nodes = Topology::of(pos.comm, pr.engine.layout).num_nodes();
  const auto key = [&](int I, int J) {
    return std::to_string(pr.P) + "x" + std::to_string(pr.Q) + "." +
           (pr.engine.bcast.policy == Policy::pure ? "pure" : "hybrid-" + std::to_string(nodes) + "nodes") + "." +
           std::to_string(pr.a_rows) + "x" + std::to_string(pr.b_cols) + "." + std::to_string(pr.narrow) + "-" +
           std::to_string(pr.wide) + "." + std::to_string(I) + "x" + std::to_string(J);
  };
  std::vector<std::string> keys;
  for (const auto& [I, J] : wanted) keys.push_back(key(I, J));
  const auto known = cached(pos.comm, keys, kShapeValues);
  std::vector<std::pair<int, int>> missing;
  for (std::size_t i = 0; i < wanted.size(); ++i)
    if (known[i].empty()) missing.push_back(wanted[i]);
  const std::vector<model::MeasuredShape> fresh = probe_lines(pos.comm, pr, missing);
  std::vector<model::MeasuredShape> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (known[i].empty()) {
      const model::MeasuredShape& s = fresh[next++];
      out.push_back(s);
      remember(pos.comm, keys[i],
               {s.outer_row.latency, s.outer_row.per_byte, s.outer_col.latency, s.outer_col.per_byte,
                s.inner_row.latency, s.inner_row.per_byte, s.inner_col.latency, s.inner_col.per_byte, s.schedule});
      continue;
    }
    const std::vector<double>& v = known[i];
    out.push_back({wanted[i].first, wanted[i].second, {v[0], v[1]}, {v[2], v[3]}, {v[4], v[5]}, {v[6], v[7]}, v[8]});
  }
  return out;
}

// The GEMM rate of precision e per candidate b, from the tuning file or
// measured (and stored), keyed by the precision and kernel (Element::tag):
// rates.<s|d|c|z|c3m|z3m>.<rows>x<cols>.<b>...
std::vector<model::BlockRate> block_rates(const GridPos& pos, std::int64_t rows, std::int64_t cols,
                                          const std::vector<std::int64_t>& blocks, const summa::Element& e) {
  rows = std::min<std::int64_t>(rows, 1024), cols = std::min<std::int64_t>(cols, 1024);
  std::string key = std::string("rates.") + e.tag + "." + std::to_string(rows) + "x" + std::to_string(cols);
  for (const std::int64_t b : blocks) key += "." + std::to_string(b);
  const auto known = cached(pos.comm, {key}, static_cast<int>(blocks.size()));
  std::vector<model::BlockRate> out;
  if (!known[0].empty()) {
    for (std::size_t i = 0; i < blocks.size(); ++i) out.push_back({static_cast<double>(blocks[i]), known[0][i]});
    return out;
  }
  out = probe_block_rates(pos.comm, rows, cols, blocks, e);
  std::vector<double> values;
  for (const model::BlockRate& r : out) values.push_back(r.gamma);
  remember(pos.comm, key, values);
  return out;
}

}  // namespace

std::vector<std::int64_t> block_candidates(std::int64_t k) {
  std::vector<std::int64_t> out;
  for (const std::int64_t b : kBlockCandidates)
    if (b <= k || out.empty()) out.push_back(b);
  return out;
}

namespace {

// The model's choice for one shape (plan_panels).
PanelPlan model_choice(const GridPos& pos, const ShapeKey& key, const EngineOptions& o) {
  const std::int64_t m = key.m, n = key.n, k = key.k;
  const Settings& s = key.settings;
  const summa::Element& e = *key.elem;
  const int P = pos.rows, Q = pos.cols;
  std::vector<std::pair<int, int>> wanted{s.groups_on(P, Q)};
  if (s.auto_groups()) wanted = model::group_shapes(P, Q);
  const std::vector<std::int64_t> blocks = s.auto_block() ? block_candidates(k) : std::vector{s.block};
  model::Problem pb;
  pb.m = static_cast<double>(m), pb.n = static_cast<double>(n), pb.k = static_cast<double>(k);
  pb.b = static_cast<double>(blocks.back()), pb.M = static_cast<double>(s.outer), pb.P = P, pb.Q = Q;
  if (P * Q == 1) return {1, 1, blocks.back(), s.outer_for(blocks.back())};

  model::Machine mc = agreed_machine(pos.comm);
  mc.elem_bytes = static_cast<int>(e.size);
  std::vector<model::BlockRate> rates;
  const std::int64_t a_rows = (m + P - 1) / P, b_cols = (n + Q - 1) / Q;
  if (blocks.size() > 1) rates = block_rates(pos, a_rows, b_cols, blocks, e);
  std::vector<model::MeasuredShape> shapes;
  if (s.measured) {
    LineProbe pr;
    // Panels are timed at the power of two at or above the call's, so the tuning
    // file holds a few entries per grid, not one per matrix size.
    pr.P = P, pr.Q = Q, pr.a_rows = power_of_two_above(a_rows), pr.b_cols = power_of_two_above(b_cols);
    pr.engine = o;
    pr.narrow = blocks.size() > 1 ? blocks.front() : std::max<std::int64_t>(1, blocks.front() / 4);
    pr.wide = std::max(s.outer_for(blocks.back()), 2 * pr.narrow);
    shapes = measured_shapes(pos, pr, wanted);
  } else {
    for (const auto& [I, J] : wanted) shapes.push_back(model::formula_shape(pb, mc, s.model, I, J));
  }
  const model::Choice best = model::choose_measured(pb, mc, shapes, rates);
  const PanelPlan plan{best.p.I, best.p.J, static_cast<std::int64_t>(best.b), static_cast<std::int64_t>(best.M)};
  if (s.stats && pos.my_row == 0 && pos.my_col == 0)
    std::printf(
        "hympi p%cgemm%s: %s chose %dx%d on grid %dx%d for m=%lld n=%lld k=%lld b=%lld%s M=%lld "
        "(model %s, predicted %.3g s, alpha=%.3g s, beta=%.3g s/B, gamma=%.3g Gflop/s)\n",
        e.code, summa::is_3m(e) ? " (3M kernel)" : "", s.auto_groups() ? "groups=auto" : "block=auto", plan.I, plan.J,
        P, Q, static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
        static_cast<long long>(plan.b), s.auto_block() ? " (auto)" : "", static_cast<long long>(plan.M), s.model_name(),
        best.p.t_total, mc.alpha, mc.beta, mc.gamma / 1e9);
  return plan;
}

}  // namespace

PanelPlan plan_panels(const GridPos& pos, PanelChoices& remembered, const ShapeKey& key, const EngineOptions& o) {
  const Settings& s = key.settings;
  if (!s.auto_groups() && !s.auto_block()) {
    const auto [I, J] = s.groups_on(pos.rows, pos.cols);
    return {I, J, s.block, s.outer_for(s.block)};
  }
  for (const auto& [k, plan] : remembered)
    if (k == key) return plan;
  const PanelPlan plan = model_choice(pos, key, o);
  if (remembered.size() >= kRemembered) remembered.pop_back();
  remembered.emplace_front(key, plan);
  return plan;
}

}  // namespace hympi::hsumma::scalapack
