#include "report.hpp"

#include <cstdarg>
#include <cstdio>
#include <ostream>

#include "csv_writer.hpp"
#include "hympi/version.hpp"

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

std::vector<std::string> csv_columns() {
  auto columns = apps::run_info_columns();
  for (const char* c :
       {"operation", "variant", "policy", "sync", "root", "size_doubles", "size_bytes", "result_doubles", "iterations",
        "warmup", "timed_write", "min_us", "avg_us", "max_us", "median_us", "bytes_per_node", "validation", "errors"})
    columns.push_back(c);
  return columns;
}

std::vector<std::string> csv_fields(const apps::RunInfo& info, const Result& r) {
  auto fields = apps::run_info_fields(info);
  const Measurement& m = r.m;
  for (std::string f :
       {r.op, r.variant.name, r.variant.policy_name(), r.variant.sync_name(),
        r.root >= 0 ? std::to_string(r.root) : std::string(), std::to_string(r.size), std::to_string(r.size * 8),
        std::to_string(m.result_doubles), std::to_string(m.iterations), std::to_string(m.warmup),
        std::string(m.timed_write ? "1" : "0"), apps::fmt(m.min_us), apps::fmt(m.avg_us), apps::fmt(m.max_us),
        apps::fmt(m.median_us), std::to_string(m.bytes_per_node), validation_text(m), std::to_string(m.errors)})
    fields.push_back(f);
  return fields;
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
  if (!rows.empty() && rows.front().root >= 0) out << "# Root: " << rows.front().root << '\n';
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
