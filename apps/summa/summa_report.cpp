#include "summa_report.hpp"

#include <algorithm>
#include <cstdio>

namespace hympi::apps {

void Checks::add(SummaCheck kind, const hsumma::CheckResult& r) {
  label = (label == "none" ? "" : label + "+") + enum_name(kind) + (r.ok() ? ":ok" : ":FAIL");
  worst_ratio = std::max(worst_ratio, r.ratio());
  ok = ok && r.ok();
}

Reporter::Reporter(const Setup& s, const RunInfo& info, double ref_gflops) : s_(s), info_(info), ref_(ref_gflops) {
  csv_ = RecordCsv::open(MPI_COMM_WORLD, s.o.common.csv, record({}, {}), &info);
}

void Reporter::header(const Variant& v) const {
  if (s_.rank != 0) return;
  std::printf(
      "# %s policy=%s lookahead=%d m=%lld n=%lld k=%lld grid=%dx%d groups=%dx%d b=%lld M=%lld nb=%lld layout=%s\n",
      enum_name(v.algorithm), v.policy_text().c_str(), v.lookahead, (long long)s_.pb.m, (long long)s_.pb.n,
      (long long)s_.pb.k, s_.P, s_.Q, v.I, v.J, (long long)s_.pb.b, (long long)(v.grouped ? s_.pb.M : s_.pb.b),
      (long long)v.nb, info_.layout.c_str());
  std::printf("%-8s %-7s %4s %12s %9s %11s %11s %11s %7s\n", "alg", "policy", "rep", "time[s]", "GF/s", "bcast[s]",
              "sync[s]", "dgemm[s]", "eff");
  std::fflush(stdout);
}

double Reporter::gflops(const Variant& v, double seconds) const {
  return 2.0 * s_.pb.m * s_.pb.n * (v.k_run > 0 ? v.k_run : s_.pb.k) / seconds * 1e-9;
}

void Reporter::sample(const Variant& v, int rep, const Sample& x) {
  const double gf = gflops(v, x.time), eff = ref_ > 0 ? gf / (ref_ * s_.size) : 0;
  if (s_.rank == 0) {
    std::printf("%-8s %-7s %4d %12.6f %9.2f %11.6f %11.6f %11.6f %6.1f%%\n", enum_name(v.algorithm),
                v.policy_text().c_str(), rep, x.time, gf, x.bcast, x.sync, x.dgemm, 100 * eff);
    std::fflush(stdout);
  }
  pending_.push_back({v, rep, x});
}

void Reporter::finish(const Checks& checks) {
  if (s_.rank == 0 && checks.label != "none")
    std::printf("check: %s (worst error/bound = %.3g)\n", checks.label.c_str(), checks.worst_ratio);
  for (const auto& p : pending_) csv_.write(record(p, checks));
  pending_.clear();
}

Record Reporter::record(const Pending& p, const Checks& checks) const {
  const auto& o = s_.o;
  const Problem& pb = s_.pb;
  const double gf = gflops(p.v, p.x.time);
  return Record()
      .add("algorithm", enum_name(p.v.algorithm))
      .add("policy", p.v.policy_text())
      .add("sync", p.v.engine() ? to_string(o.sync) : "-")
      .add("lookahead", p.v.engine() ? std::to_string(p.v.lookahead) : "-")
      .add("shared_inputs", p.v.engine() && p.v.policy == Policy::hybrid && o.share_inputs)
      .add("m", pb.m)
      .add("n", pb.n)
      .add("k", pb.k)
      .add("max_steps", o.max_steps)
      .add("k_run", p.v.k_run > 0 ? p.v.k_run : pb.k)
      .add("P", s_.P)
      .add("Q", s_.Q)
      .add("I", p.v.I)
      .add("J", p.v.J)
      .add("b", pb.b)
      .add("M", p.v.grouped ? pb.M : pb.b)
      .add("pdgemm_nb", p.v.nb)
      .add("order", to_string(o.order))
      .add("group_major", o.group_major)
      .add("threads", o.threads)
      .add("rep", p.rep)
      .add("reps", o.reps)
      .add("warmup", o.warmup)
      .add("batch", o.batch)
      .add("time_s", p.x.time, 9)
      .add("gflops", gf, 6)
      .add("bcast_s", p.x.bcast, 9)
      .add("sync_s", p.x.sync, 9)
      .add("dgemm_s", p.x.dgemm, 9)
      .add("outer_bcasts", p.x.outer)
      .add("inner_bcasts", p.x.inner)
      .add("ref_dgemm_gflops", ref_, 6)
      .add("efficiency", ref_ > 0 ? gf / (ref_ * s_.size) : 0, 6)
      .add("check", checks.label)
      .add("check_ratio", checks.worst_ratio, 4);
}

}  // namespace hympi::apps
