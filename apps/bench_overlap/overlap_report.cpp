#include "overlap_report.hpp"

#include <algorithm>
#include <cstdio>

namespace hympi::overlap {

double overlap_pct(double comm_s, double compute_s, double total_s) {
  return std::max(0.0, 100.0 - 100.0 * (total_s - compute_s) / comm_s);
}

apps::Record record(const Row& r) {
  return apps::Record()
      .add("operation", "i" + r.op)
      .add("variant", r.variant)
      .add("leaders", r.leaders)
      .add("progress_thread", r.progress_thread ? 1 : 0)
      .add("polls", r.polls)
      .add("size_doubles", r.size)
      .add("size_bytes", r.size * 8)
      .add("iterations", r.iterations)
      .add("comm_us", r.comm_s * 1e6)
      .add("compute_us", r.compute_s * 1e6)
      .add("total_us", r.total_s * 1e6)
      .add("overlap_pct", r.overlap_pct, 4)
      .add("cache", r.cache)
      .add("evict_bytes", r.evict_bytes);
}

void print_header(const apps::RunInfo& info, bool progress_thread) {
  std::printf("# hympi overlap of nonblocking collectives (OSU osu_iallgather / osu_iallreduce method)\n");
  std::printf("# Ranks: %d, nodes: %d, layout: %s%s\n", info.ranks, info.nodes, info.layout.c_str(),
              progress_thread ? ", hybrid with a progress thread" : "");
  std::printf("%-10s %-8s %-7s %9s %12s %12s %12s %10s\n", "operation", "variant", "polls", "bytes", "comm(us)",
              "compute(us)", "total(us)", "overlap%");
}

void print_row(const Row& r) {
  std::printf("%-10s %-8s %-7d %9lld %12.2f %12.2f %12.2f %10.1f\n", ("i" + r.op).c_str(), r.variant.c_str(), r.polls,
              static_cast<long long>(r.size * 8), r.comm_s * 1e6, r.compute_s * 1e6, r.total_s * 1e6, r.overlap_pct);
}

}  // namespace hympi::overlap
