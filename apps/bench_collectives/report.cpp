#include "report.hpp"

#include <cstdarg>
#include <cstdio>
#include <ostream>

#include "hympi/version.hpp"
#include "reduce_types.hpp"

namespace hympi::bench {

namespace {
std::string printf_string(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string printf_string(const char* format, ...) {
  char buf[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}
}  // namespace

std::string validation_text(const Measurement& m) {
  if (!m.validated) return "-";
  return m.errors == 0 ? "Pass" : "Fail";
}

apps::Record record(const Result& r) {
  const Measurement& m = r.m;
  return apps::Record()
      .add("operation", r.op)
      .add("variant", r.variant.name)
      .add("policy", r.variant.policy_name())
      .add("sync", r.variant.sync_name())
      .add("leaders", r.variant.options.leaders)
      .add("groups", r.groups)
      .add("groups_model_s", r.groups_model_s)
      .add("groups_model", r.groups_model)
      .add("root", r.root >= 0 ? std::to_string(r.root) : std::string())
      .add("type", r.type)
      .add("reduce_op", r.reduce_op)
      .add("size_doubles", r.size)
      .add("size_bytes", r.size * static_cast<std::int64_t>(bytes_of(r.type)))
      .add("result_doubles", m.result_doubles)
      .add("iterations", m.iterations)
      .add("warmup", m.warmup)
      .add("timed_write", m.timed_write)
      .add("cache", m.llc_bytes ? "cold" : "warm")
      .add("evict_bytes", m.evict_bytes)
      .add("llc_bytes", m.llc_bytes)
      .add("evictions", m.evictions)
      .add("min_us", m.min_us)
      .add("avg_us", m.avg_us)
      .add("max_us", m.max_us)
      .add("median_us", m.median_us)
      .add("bytes_per_node", m.bytes_per_node)
      .add("validation", validation_text(m))
      .add("errors", m.errors)
      .add("baseline", r.baseline)
      .add("baseline_setting", r.baseline_setting);
}

void print_table(std::ostream& out, const std::string& title, const Variant& variant, const apps::RunInfo& info,
                 const std::vector<Result>& rows, bool validate) {
  out << "# hympi " << title << " Latency Test v" << library_version() << '\n';
  out << "# Variant: " << variant.name << " (policy " << variant.policy_name();
  if (!variant.sync_name().empty()) out << ", sync " << variant.sync_name();
  out << ")\n";
  out << "# Ranks: " << info.ranks << ", nodes: " << info.nodes << ", ranks per node: " << info.ranks_per_node
      << ", layout: " << info.layout << ", MPI: " << info.mpi << '\n';
  if (!rows.empty() && !rows.front().m.timed_write) out << "# Write of the contribution not timed (--untimed-write)\n";
  if (!rows.empty() && rows.front().m.llc_bytes)
    out << "# Cold caches: " << rows.front().m.evict_bytes << " bytes per rank evicted between iterations (LLC "
        << rows.front().m.llc_bytes << " bytes)\n";
  if (!rows.empty() && rows.front().root >= 0) out << "# Root: " << rows.front().root << '\n';
  if (!rows.empty())
    out << "# MPI collectives: " << rows.front().baseline << " (" << rows.front().baseline_setting << ")\n";
  if (!rows.empty() && !rows.front().reduce_op.empty())
    out << "# Size in elements per rank; Datatype: " << mpi_type_text(rows.front().type)
        << ", op: " << rows.front().reduce_op << '\n';
  else
    out << "# Size in doubles per rank" << (title == "Allgatherv" ? " (rank r contributes size * (1 + r % 3))" : "")
        << '\n';
  out << printf_string("%-10s%18s%18s%18s%12s", "# Size", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)",
                       "Iterations");
  out << (validate ? printf_string("%12s", "Validation") : "") << '\n';
  for (const auto& r : rows) {
    out << printf_string("%-10lld%18.2f%18.2f%18.2f%12d", static_cast<long long>(r.size), r.m.avg_us, r.m.min_us,
                         r.m.max_us, r.m.iterations);
    out << (validate ? printf_string("%12s", validation_text(r.m).c_str()) : "") << '\n';
  }
  out << '\n' << std::flush;
}

}  // namespace hympi::bench
