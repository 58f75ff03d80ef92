// Port of apps/model/hympi_model.py: keep the operation order identical, so that
// both pick the same optimum even where the model is flat (binomial).
#include "hympi/hsumma/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace hympi::hsumma::model {

Bcast parse_bcast(const std::string& name) {
  return parse_enum<Bcast>(name);
}

const char* bcast_name(Bcast b) {
  return enum_name(b);
}

std::pair<double, double> bcast_terms(Bcast algorithm, int p, int segments) {
  if (p < 1) throw std::invalid_argument("broadcast among " + std::to_string(p) + " processes");
  if (p == 1) return {0.0, 0.0};
  switch (algorithm) {
    case Bcast::binomial: {
      const double lg = std::log2(p);
      return {lg, lg};
    }
    case Bcast::vandegeijn:
      return {std::log2(p) + p - 1, 2.0 * (p - 1) / p};
    case Bcast::pipelined: {
      if (segments < 1) throw std::invalid_argument("pipelined broadcast needs >= 1 segment");
      const double steps = p + segments - 2;
      return {steps, steps / segments};
    }
  }
  throw std::invalid_argument("bad broadcast model");
}

namespace {

double bcast_time(Bcast algorithm, double nbytes, int p, const Machine& mc, int segments) {
  const auto [lat, bw] = bcast_terms(algorithm, p, segments);
  return lat * mc.alpha + nbytes * bw * mc.beta;
}

}  // namespace

Prediction predict(const Problem& pb, const Machine& mc, Bcast algorithm, int I, int J, int segments) {
  if (I < 1 || J < 1 || pb.P % I || pb.Q % J)
    throw std::invalid_argument("groups " + std::to_string(I) + "x" + std::to_string(J) + " do not divide the grid " +
                                std::to_string(pb.P) + "x" + std::to_string(pb.Q));
  const double e = mc.elem_bytes;
  const double a_rows = pb.m / pb.P, b_cols = pb.n / pb.Q;
  Prediction r;
  r.I = I, r.J = J;
  if (I * J > 1) {
    const double outer_steps = pb.k / pb.M;
    r.t_outer = outer_steps * (bcast_time(algorithm, a_rows * pb.M * e, J, mc, segments) +
                               bcast_time(algorithm, pb.M * b_cols * e, I, mc, segments));
  }
  const double inner_steps = pb.k / pb.b;
  r.t_inner = inner_steps * (bcast_time(algorithm, a_rows * pb.b * e, pb.Q / J, mc, segments) +
                             bcast_time(algorithm, pb.b * b_cols * e, pb.P / I, mc, segments));
  r.t_comp = 2.0 * pb.m * pb.n * pb.k / (pb.P * pb.Q * mc.gamma);
  r.t_comm = r.t_outer + r.t_inner;
  r.t_total = r.t_comm + r.t_comp;
  return r;
}

std::vector<std::pair<int, int>> group_shapes(int P, int Q) {
  std::map<int, std::pair<double, std::pair<int, int>>> best;  // G -> (score, (I, J))
  for (int I = 1; I <= P; ++I) {
    if (P % I) continue;
    for (int J = 1; J <= Q; ++J) {
      if (Q % J) continue;
      const int G = I * J;
      // Prefer groups shaped like the grid (I/J as close to P/Q as possible).
      const double score = std::fabs(std::log((static_cast<double>(I) / J) / (static_cast<double>(P) / Q)));
      const auto it = best.find(G);
      if (it == best.end() || score < it->second.first) best[G] = {score, {I, J}};
    }
  }
  std::vector<std::pair<int, int>> out;
  for (const auto& [G, v] : best) out.push_back(v.second);
  return out;
}

Prediction optimal(const Problem& pb, const Machine& mc, Bcast algorithm, int segments) {
  Prediction best;
  bool first = true;
  for (const auto& [I, J] : group_shapes(pb.P, pb.Q)) {  // ascending G: a tie keeps the smaller
    const Prediction p = predict(pb, mc, algorithm, I, J, segments);
    if (first || p.t_total < best.t_total) best = p, first = false;
  }
  return best;
}

Line Line::fit(double bytes1, double t1, double bytes2, double t2) {
  Line l;
  if (bytes2 != bytes1) l.per_byte = std::max(0.0, (t2 - t1) / (bytes2 - bytes1));
  const double b_lo = bytes1 < bytes2 ? bytes1 : bytes2, t_lo = bytes1 < bytes2 ? t1 : t2;
  l.latency = std::max(0.0, t_lo - b_lo * l.per_byte);
  return l;
}

MeasuredShape formula_shape(const Problem& pb, const Machine& mc, Bcast algorithm, int I, int J, int segments) {
  const auto line = [&](int p) {
    const auto [lat, bw] = bcast_terms(algorithm, p, segments);
    return Line{lat * mc.alpha, bw * mc.beta};
  };
  MeasuredShape s;
  s.I = I, s.J = J;
  s.outer_row = line(J), s.outer_col = line(I);
  s.inner_row = line(pb.Q / J), s.inner_col = line(pb.P / I);
  return s;
}

Prediction predict_measured(const Problem& pb, const Machine& mc, const MeasuredShape& s) {
  if (s.I < 1 || s.J < 1 || pb.P % s.I || pb.Q % s.J)
    throw std::invalid_argument("groups " + std::to_string(s.I) + "x" + std::to_string(s.J) +
                                " do not divide the grid " + std::to_string(pb.P) + "x" + std::to_string(pb.Q));
  const double e = mc.elem_bytes;
  const double a_rows = pb.m / pb.P, b_cols = pb.n / pb.Q;
  const auto cost = [](const Line& l, int p, double bytes) { return p > 1 ? l.time(bytes) : 0.0; };
  Prediction r;
  r.I = s.I, r.J = s.J;
  if (s.I * s.J > 1)
    r.t_outer = pb.k / pb.M * (cost(s.outer_row, s.J, a_rows * pb.M * e) + cost(s.outer_col, s.I, pb.M * b_cols * e));
  r.t_inner = pb.k / pb.b *
              (cost(s.inner_row, pb.Q / s.J, a_rows * pb.b * e) + cost(s.inner_col, pb.P / s.I, pb.b * b_cols * e));
  r.t_comp = 2.0 * pb.m * pb.n * pb.k / (pb.P * pb.Q * mc.gamma);
  r.t_outer *= s.schedule, r.t_inner *= s.schedule;
  r.t_comm = r.t_outer + r.t_inner;
  r.t_total = r.t_comm + r.t_comp;
  return r;
}

Choice choose_measured(const Problem& pb, const Machine& mc, const std::vector<MeasuredShape>& shapes,
                       const std::vector<BlockRate>& blocks) {
  if (shapes.empty()) throw std::invalid_argument("no group shape to choose from");
  std::vector<BlockRate> candidates = blocks;
  if (candidates.empty()) candidates.push_back({pb.b, mc.gamma});
  Choice best;
  bool first = true;
  for (const MeasuredShape& s : shapes)
    for (const BlockRate& br : candidates) {
      Problem q = pb;
      q.b = br.b;
      q.M = pb.M <= 0 ? br.b : std::ceil(pb.M / br.b) * br.b;
      Machine m = mc;
      m.gamma = br.gamma;
      const Prediction p = predict_measured(q, m, s);
      const int g = s.I * s.J, best_g = best.p.I * best.p.J;
      const bool better = first || p.t_total < best.p.t_total ||
                          (p.t_total == best.p.t_total && (g < best_g || (g == best_g && br.b > best.b)));
      if (better) best = {p, q.b, q.M}, first = false;
    }
  return best;
}

}  // namespace hympi::hsumma::model
