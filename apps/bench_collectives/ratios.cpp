// The ratios the benchmark exists for (issue targets, Zhou et al. Figs 7-10),
// computed from one run, once from OSU's average latencies and once from the
// per-rank medians (robust to iterations a busy machine preempts):
//   pure / hybrid at the largest size          (target >= 10x for allgather @32768)
//   hybrid / node-barrier, worst over sizes    (target <= 2x: the sync is the floor)
//   hybrid-barrier / hybrid-flags, small sizes (target > 1x: flags are cheaper)
// The targets are Zhou's, for allgather(v) and bcast: allreduce/reduce and
// gather/scatter ratios are printed without a verdict.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <tuple>

#include "report.hpp"

namespace hympi::bench {

namespace {

constexpr std::int64_t kSmallSize = 128;  // doubles per rank (1 KiB): "small sizes"

std::string ratio_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", x);
  return buf;
}

// The targets are stated for one node (Zhou Fig 7 conditions); elsewhere the
// ratios are printed without a verdict (judge = false).
std::string verdict(bool judge, bool met, const char* target) {
  if (!judge) return "";
  return std::string("  (target ") + target + ": " + (met ? "met" : "MISSED") + ")";
}

class Table {
 public:
  Table(const std::vector<Result>& results, bool median) {
    for (const auto& r : results) {
      latency_[{r.op, r.variant.name, r.size}] = median ? r.m.median_us : r.m.avg_us;
      sizes_[r.op].insert(r.size);
      if (std::find(ops_.begin(), ops_.end(), r.op) == ops_.end()) ops_.push_back(r.op);
    }
  }
  const std::vector<std::string>& ops() const { return ops_; }
  const std::set<std::int64_t>& sizes(const std::string& op) const { return sizes_.at(op); }
  // Latency ratio a/b at one size, or NaN when either was not measured.
  double ratio(const std::string& op, const std::string& a, const std::string& b, std::int64_t size) const {
    auto ia = latency_.find({op, a, size}), ib = latency_.find({op, b, size});
    if (ia == latency_.end() || ib == latency_.end() || ib->second <= 0) return std::nan("");
    return ia->second / ib->second;
  }

 private:
  std::map<std::tuple<std::string, std::string, std::int64_t>, double> latency_;
  std::map<std::string, std::set<std::int64_t>> sizes_;
  std::vector<std::string> ops_;
};

void pure_over_hybrid(std::ostream& out, const Table& t, const std::string& op, bool judge) {
  const std::int64_t largest = *t.sizes(op).rbegin();
  for (const char* hybrid : {"hybrid-flags", "hybrid-barrier"}) {
    const double x = t.ratio(op, "pure", hybrid, largest);
    if (std::isnan(x)) continue;
    out << "ratio pure/" << hybrid << ' ' << op << " @" << largest << " = " << ratio_text(x);
    if (op == "allgather" && largest == 32768) out << verdict(judge, x >= 10, ">= 10x");
    out << '\n';
  }
}

void hybrid_over_floor(std::ostream& out, const Table& t, const std::string& op, bool judge) {
  for (const char* hybrid : {"hybrid-flags", "hybrid-barrier"}) {
    double worst = 0, best = INFINITY;
    std::int64_t worst_size = 0;
    for (auto size : t.sizes(op)) {
      const double x = t.ratio(op, hybrid, "node-barrier", size);
      if (std::isnan(x)) continue;
      if (x > worst) worst = x, worst_size = size;
      best = std::min(best, x);
    }
    if (worst == 0) continue;
    out << "ratio " << hybrid << "/node-barrier " << op << " max over sizes = " << ratio_text(worst) << " @"
        << worst_size << ", min = " << ratio_text(best);
    if (op != "allgatherv") out << verdict(judge, worst <= 2, "<= 2x at every size");
    out << '\n';
  }
}

void flags_vs_barrier(std::ostream& out, const Table& t, const std::string& op, bool judge) {
  double lo = INFINITY, hi = 0, log_sum = 0;
  int n = 0;
  for (auto size : t.sizes(op)) {
    const double x = t.ratio(op, "hybrid-barrier", "hybrid-flags", size);
    if (size > kSmallSize || std::isnan(x)) continue;
    lo = std::min(lo, x), hi = std::max(hi, x), log_sum += std::log(x), ++n;
  }
  if (n == 0) return;
  out << "ratio hybrid-barrier/hybrid-flags " << op << " sizes <= " << kSmallSize
      << ": geomean = " << ratio_text(std::exp(log_sum / n)) << ", min = " << ratio_text(lo)
      << ", max = " << ratio_text(hi) << verdict(judge, lo > 1, "> 1x: flags faster at every small size") << '\n';
}

void print_ratios(std::ostream& out, const apps::RunInfo& info, const Table& t, bool median, bool judge) {
  out << "# Ratios of "
      << (median ? "median latencies (per-rank medians: robust to preemption)" : "average latencies (OSU)")
      << " (ranks " << info.ranks << ", nodes " << info.nodes << ", ranks per node " << info.ranks_per_node
      << ", layout " << info.layout << ")" << (judge ? "" : "; targets are judged on one node only") << "\n";
  for (const auto& op : t.ops()) {
    const bool judged = judge && (op == "allgather" || op == "allgatherv" || op == "bcast");
    pure_over_hybrid(out, t, op, judged);
    hybrid_over_floor(out, t, op, judged);
    flags_vs_barrier(out, t, op, judged);
  }
  out << std::flush;
}

}  // namespace

void print_ratios(std::ostream& out, const apps::RunInfo& info, const std::vector<Result>& results) {
  if (results.empty()) return;
  const bool judge = info.nodes == 1;
  for (bool median : {false, true}) print_ratios(out, info, Table(results, median), median, judge);
}

}  // namespace hympi::bench
