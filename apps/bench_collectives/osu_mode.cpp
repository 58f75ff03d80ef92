#include "osu_mode.hpp"

#include <mpi.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "measure.hpp"
#include "operation.hpp"
#include "plain_mpi.hpp"
#include "reduce_types.hpp"

namespace hympi::bench {

namespace {

constexpr std::int64_t kLargeMessageBytes = 8192;          // OSU's LARGE_MESSAGE_SIZE
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 30;  // per rank: beyond any laptop
constexpr const char* kMethod =
    "OSU mode (--osu): the output and method of OSU's osu_allgather / osu_bcast, for tools that read OSU output "
    "and for setting a variant beside OSU's own numbers. Sizes in bytes (-m), one operation and one variant per "
    "run (default: allgather, pure), each rank's contribution (the root's message) written into the collective's "
    "slot once per size and, with -c, again before every iteration, untimed (as OSU fills its buffers; a write "
    "every iteration would leave the data dirty in the writer's cache, which OSU's do not; the default mode "
    "times it), only the collective inside the timer, an "
    "untimed MPI_Barrier after every iteration, latency = the per-rank average, reduced to min/avg/max over "
    "ranks; the same loop as the default mode (with -c every iteration moves new data). "
    "Differences from OSU 7.4 itself: the data are MPI_BYTE (OSU: MPI_CHAR, the same bytes); pure allgather is "
    "hympi's pure policy, an in-place MPI_Allgather into one result buffer (OSU: MPI_Allgather from a separate "
    "send buffer); pure bcast is MPI_Bcast from the root's buffer, as OSU; pure gather / scatter are "
    "MPI_Gather / MPI_Scatter on private buffers (as osu_gather / osu_scatter; -m is the bytes per rank); "
    "allreduce/reduce reduce "
    "elements of --type by --op (default MPI_DOUBLE, sum; OSU 7.4: MPI_CHAR, sum, -T mpi_float for float) "
    "and sizes below one element are "
    "skipped; hybrid variants add the node synchronization of the shared copy. "
    "-i/-x/-c/--root/--baseline keep their meaning.";

bool parse_bytes(const std::string& text, std::int64_t& value) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::stoll(text);
  return true;
}

}  // namespace

std::string parse_osu_sizes(const std::string& text, std::int64_t& min_bytes, std::int64_t& max_bytes) {
  const auto colon = text.find(':');
  std::int64_t lo = min_bytes, hi = max_bytes;
  const std::string lo_text = colon == std::string::npos ? "" : text.substr(0, colon);
  const std::string hi_text = colon == std::string::npos ? text : text.substr(colon + 1);
  const std::string usage = "-m '" + text + "': expected [MIN:]MAX or MIN: in bytes, e.g. -m 1048576 or -m 8:4096";
  if (text.empty() || (colon != std::string::npos && lo_text.empty() && hi_text.empty())) return usage;
  if (!lo_text.empty() && !parse_bytes(lo_text, lo)) return usage;
  if (!hi_text.empty() && !parse_bytes(hi_text, hi)) return usage;
  if (colon != std::string::npos && lo_text.empty()) return usage;
  if (lo < 1) return "-m: the smallest size must be >= 1 byte (got " + std::to_string(lo) + ")";
  if (hi > kMaxBytes) return "-m: the largest size must be <= " + std::to_string(kMaxBytes) + " bytes";
  if (lo > hi) return "-m: MIN (" + std::to_string(lo) + ") is larger than MAX (" + std::to_string(hi) + ")";
  min_bytes = lo;
  max_bytes = hi;
  return "";
}

void add_osu_options(CLI::App& app, OsuOptions& osu) {
  app.add_flag("--osu", osu.enabled, kMethod);
  app.add_option("-m,--message-size", osu.sizes,
                 "OSU mode: [MIN:]MAX message size in bytes per rank (default 1:1048576; 'MIN:' keeps the default "
                 "MAX)");
  app.add_flag("-f,--full", osu.full, "OSU mode: also print min and max latency and iterations");
  app.add_flag("-z,--tail-lat", osu.tail,
               "OSU mode: also print P50, P90 and P99 latency (OSU's -z: the percentiles of each iteration's "
               "latency averaged over ranks; robust to the time slices a loaded machine steals)");
  app.add_flag("--vs-mpi", osu.vs_mpi,
               "OSU mode: also time the MPI call the pure policy makes (in-place MPI_Allgather, MPI_Bcast, "
               "MPI_Allreduce, MPI_Reduce, MPI_Gather, MPI_Scatter), alternating with the variant iteration by "
               "iteration, and print both per-rank medians and their ratio (variant / MPI): the wrapper's cost");
}

std::string check_osu_options(OsuOptions& osu, const BenchOptions& o, const CLI::App& app) {
  if (!osu.enabled) {
    if (app.count("-m") || app.count("-f") || osu.tail || osu.vs_mpi)
      return "-m, -f, -z and --vs-mpi belong to OSU mode: add --osu";
    return "";
  }
  if (app.count("-m"))
    if (auto problem = parse_osu_sizes(osu.sizes, osu.min_bytes, osu.max_bytes); !problem.empty()) return problem;
  if (o.cache != "warm") return "--osu measures as OSU does, with warm caches: drop --cache cold";
  if (app.count("--min-size") || app.count("--max-size"))
    return "--osu takes sizes in bytes with -m, not --min-size/--max-size";
  osu.op = app.count("--ops") ? o.ops.front() : "allgather";
  osu.variant = app.count("--variants") ? o.variants.front() : "pure";
  if (app.count("--ops") && o.ops.size() != 1) return "--osu measures one operation per run (as an OSU binary)";
  if (app.count("--variants") && o.variants.size() != 1) return "--osu measures one variant per run";
  if (osu.op == "allgatherv") return "--osu: --ops must be allgather, bcast, allreduce, reduce, gather or scatter";
  if (osu.variant == kNodeBarrier) return "--osu: --variants must be pure, hybrid-barrier or hybrid-flags";
  return "";
}

namespace {
// --vs-mpi's columns (plain_mpi.hpp).
void print_vs_mpi_header() { std::printf("%18s%18s%10s", "Median(us)", "MPI Median(us)", "Ratio"); }
void print_vs_mpi_row(const Comparison& c) { std::printf("%18.3f%18.3f%10.3f", c.hympi_us, c.mpi_us, c.ratio()); }

const char* osu_title(const std::string& op) {
  if (op == "bcast") return "Broadcast";
  if (op == "allreduce") return "Allreduce";
  if (op == "reduce") return "Reduce";
  if (op == "gather") return "Gather";
  if (op == "scatter") return "Scatter";
  return "Allgather";
}
}  // namespace

int run_osu_mode(const OsuOptions& osu, const BenchOptions& o, const Topology& topo) {
  Variant variant = parse_variant(osu.variant);
  variant.options.leaders = o.leaders;
  const OperationKind kind = find_operation(osu.op, o.reduction);
  Operation op(kind.make(topo, variant, DataSetting{o.root, Element::byte}));
  const bool reduces = kind.reduces;
  const std::int64_t element = reduces ? static_cast<std::int64_t>(bytes_of(o.reduction.type)) : 1;
  const bool root_prints = topo.rank() == 0;
  if (root_prints) {
    std::printf("# OSU MPI %s Latency Test (hympi-bench-collectives --osu, variant %s, baseline %s)\n",
                osu_title(osu.op), osu.variant.c_str(), o.baseline.c_str());
    std::printf("# Datatype: %s.\n", reduces ? mpi_type_text(o.reduction.type).c_str() : "MPI_BYTE");
    if (reduces) std::printf("# Operation: %s.\n", o.reduction.op.c_str());
    std::printf("%-10s%18s", "# Size", "Avg Latency(us)");
    if (osu.full) std::printf("%18s%18s%12s", "Min Latency(us)", "Max Latency(us)", "Iterations");
    if (o.validate) std::printf("%12s", "Validation");
    if (osu.tail) std::printf("%18s%18s%18s", "P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)");
    if (osu.vs_mpi) print_vs_mpi_header();
    std::printf("\n");
    std::fflush(stdout);
  }
  PlainMpi mpi(osu.op, o, topo);
  std::int64_t failures = 0;
  for (std::int64_t size = osu.min_bytes; size <= osu.max_bytes; size *= 2) {
    const std::int64_t bytes = size / element * element;  // whole elements; none: skipped
    if (bytes == 0) continue;
    const bool large = bytes > kLargeMessageBytes;
    const int iterations = o.iterations != BenchOptions::kAuto ? o.iterations : (large ? 100 : 1000);
    const int warmup = o.warmup != BenchOptions::kAuto ? o.warmup : (large ? 10 : 100);
    op.resize(bytes / element);
    op.write();  // once, as OSU fills its buffers once per run
    // The default mode's loop with OSU's method: only the collective is timed.
    const Measurement row = measure(op, topo, iterations, warmup, o.validate, WriteMode::none);
    failures += row.errors;
    Comparison vs;
    if (osu.vs_mpi) {
      mpi.resize(bytes);
      vs = compare_with_mpi(op, mpi, topo, iterations, warmup);
    }
    if (!root_prints) continue;
    std::printf("%-10lld%18.2f", static_cast<long long>(bytes), row.avg_us);
    if (osu.full) std::printf("%18.2f%18.2f%12d", row.min_us, row.max_us, row.iterations);
    if (o.validate) std::printf("%12s", row.errors ? "Fail" : "Pass");
    if (osu.tail) std::printf("%18.2f%18.2f%18.2f", row.tail_us[0], row.tail_us[1], row.tail_us[2]);
    if (osu.vs_mpi) print_vs_mpi_row(vs);
    std::printf("\n");
    std::fflush(stdout);
  }
  return failures ? 1 : 0;
}

}  // namespace hympi::bench
