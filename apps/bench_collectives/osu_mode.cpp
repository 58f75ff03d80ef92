#include "osu_mode.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/reduce.hpp"
#include "operation.hpp"
#include "reduce_data.hpp"
#include "reduce_types.hpp"

namespace hympi::bench {

namespace {

constexpr std::int64_t kLargeMessageBytes = 8192;          // OSU's LARGE_MESSAGE_SIZE
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 30;  // per rank: beyond any laptop
constexpr const char* kMethod =
    "OSU mode (--osu): the output and method of OSU's osu_allgather / osu_bcast, for tools that read OSU output "
    "and for setting a variant beside OSU's own numbers. Sizes in bytes (-m), one operation and one variant per "
    "run (default: allgather, pure), each rank's contribution written once before timing and reused every "
    "iteration (no write is timed, unlike the default mode), only the collective inside the timer, an untimed "
    "MPI_Barrier after every iteration, latency = the per-rank average, reduced to min/avg/max over ranks. "
    "Differences from OSU 7.4 itself: the data are MPI_BYTE (OSU: MPI_CHAR, the same bytes); pure allgather is "
    "hympi's pure policy, an in-place MPI_Allgatherv into one result buffer (OSU: MPI_Allgather from a separate "
    "send buffer); pure bcast is MPI_Bcast from the root's own buffer, as OSU; allreduce/reduce reduce "
    "elements of --type by --op (default MPI_DOUBLE, sum; OSU: MPI_FLOAT, sum), sizes below one element are "
    "skipped, and each rank's contribution is copied into slot() again before every iteration, untimed (the "
    "hybrid node slot may be reused by run()); hybrid variants add the node synchronization of the shared copy. "
    "-i/-x/-c/--root/--baseline keep their meaning.";

// This rank's byte `i`: distinct per rank, so a misplaced block is visible.
unsigned char byte_of(int rank, std::int64_t i) {
  return static_cast<unsigned char>((rank * 131 + i * 7 + 1) & 0xff);
}

// One collective measured the OSU way: set up for `bytes` (untimed, data written),
// then run() again and again on the same data.
struct OsuCollective {
  std::function<void(std::int64_t bytes)> setup;
  std::function<void()> refill;  // untimed, before every iteration (none: the data stay in place)
  std::function<void()> run;
  std::function<std::int64_t()> errors;  // wrong bytes in this rank's result
};

OsuCollective make_allgather(const Topology& topo, const CollectiveOptions& options) {
  auto collective = std::shared_ptr<Allgatherv>(Allgatherv::create_allgather(topo, 1, 1, options));
  auto bytes = std::make_shared<std::int64_t>(0);
  OsuCollective c;
  c.setup = [&topo, collective, bytes](std::int64_t n) {
    *bytes = n;
    collective->set_counts(std::vector<std::int64_t>(topo.size(), n));
    // The hybrid node copy alternates between two halves: write both once.
    for (int half = 0; half < 2; ++half) {
      auto* slot = static_cast<unsigned char*>(collective->slot());
      for (std::int64_t i = 0; i < n; ++i) slot[i] = byte_of(topo.rank(), i);
      collective->run();
    }
  };
  c.run = [collective] { collective->run(); };
  c.errors = [&topo, collective, bytes] {
    const auto* result = static_cast<const unsigned char*>(collective->result());
    std::int64_t wrong = 0;
    for (int r = 0; r < topo.size(); ++r)
      for (std::int64_t i = 0; i < *bytes; ++i) wrong += result[r * *bytes + i] != byte_of(r, i);
    return wrong;
  };
  return c;
}

OsuCollective make_bcast(const Topology& topo, const CollectiveOptions& options, int root, std::int64_t max_bytes) {
  auto collective = std::shared_ptr<Bcast>(Bcast::create(topo, max_bytes, 1, options));
  auto source = std::make_shared<std::vector<unsigned char>>();
  OsuCollective c;
  c.setup = [&topo, source, root](std::int64_t n) {
    source->resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) (*source)[i] = byte_of(root, i);
  };
  // The root broadcasts its own buffer, as OSU's osu_bcast does.
  c.run = [&topo, collective, source, root] {
    collective->run(root, static_cast<std::int64_t>(source->size()), topo.rank() == root ? source->data() : nullptr);
  };
  c.errors = [collective, source, root] {
    const auto* result = static_cast<const unsigned char*>(collective->result());
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < source->size(); ++i) wrong += result[i] != byte_of(root, static_cast<std::int64_t>(i));
    return wrong;
  };
  return c;
}

// Allreduce (root < 0) or Reduce of `bytes / sizeof(T)` elements, OSU's data
// written again before every iteration, checked against the plain fold.
template <class T>
OsuCollective make_reduction(const Topology& topo, const CollectiveOptions& options, const Reduction& reduction,
                             int root) {
  struct State {
    std::unique_ptr<Allreduce> all;
    std::unique_ptr<Reduce> one;
    std::vector<T> source;
    void* slot() { return all ? all->slot() : one->slot(); }
    const T* result() const { return all ? all->template result_as<T>() : one->template result_as<T>(); }
  };
  auto state = std::make_shared<State>();
  OsuCollective c;
  c.setup = [&topo, options, reduction, root, state](std::int64_t bytes) {
    const std::int64_t count = bytes / static_cast<std::int64_t>(sizeof(T));
    const MPI_Datatype type = mpi_type_of(reduction.type);
    const MPI_Op op = mpi_op_of(reduction.op);
    state->all.reset();
    state->one.reset();
    if (root < 0)
      state->all = Allreduce::create(topo, count, type, op, options);
    else
      state->one = Reduce::create(topo, count, type, op, root, options);
    state->source.resize(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
      state->source[i] = reduce_value<T>(reduction.op, 0, topo.rank(), i, topo.size());
  };
  c.refill = [state] { std::memcpy(state->slot(), state->source.data(), state->source.size() * sizeof(T)); };
  c.run = [state] { state->all ? state->all->run() : state->one->run(); };
  c.errors = [&topo, reduction, root, state] {
    const T* result = state->result();
    if (root >= 0 && topo.rank() != root) return std::int64_t{result != nullptr};
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < state->source.size(); ++i)
      wrong += result[i] != reduce_expected<T>(reduction.op, 0, static_cast<std::int64_t>(i), topo.size());
    return wrong;
  };
  return c;
}

struct OsuRow {
  double avg_us = 0, min_us = 0, max_us = 0;
  int iterations = 0;
  std::int64_t errors = 0;
};

// OSU's loop: timer around the collective alone, untimed barrier after each iteration.
OsuRow measure_osu(OsuCollective& c, MPI_Comm comm, int iterations, int warmup, bool validate) {
  double timer = 0;
  std::int64_t errors = 0;
  MPI_Barrier(comm);
  for (int it = 0; it < warmup + iterations; ++it) {
    if (c.refill) c.refill();
    const double start = MPI_Wtime();
    c.run();
    const double stop = MPI_Wtime();
    if (it >= warmup) timer += stop - start;
    if (validate) errors += c.errors();
    MPI_Barrier(comm);
  }
  OsuRow row;
  row.iterations = iterations;
  const double mine = timer * 1e6 / iterations;
  int size = 1;
  MPI_Comm_size(comm, &size);
  MPI_Allreduce(&mine, &row.min_us, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&mine, &row.max_us, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&mine, &row.avg_us, 1, MPI_DOUBLE, MPI_SUM, comm);
  row.avg_us /= size;
  MPI_Allreduce(&errors, &row.errors, 1, MPI_INT64_T, MPI_SUM, comm);
  return row;
}

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
}

std::string check_osu_options(OsuOptions& osu, const BenchOptions& o, const CLI::App& app) {
  if (!osu.enabled) {
    if (app.count("-m") || app.count("-f")) return "-m and -f belong to OSU mode: add --osu";
    return "";
  }
  if (app.count("-m"))
    if (auto problem = parse_osu_sizes(osu.sizes, osu.min_bytes, osu.max_bytes); !problem.empty()) return problem;
  if (app.count("--min-size") || app.count("--max-size"))
    return "--osu takes sizes in bytes with -m, not --min-size/--max-size";
  osu.op = app.count("--ops") ? o.ops.front() : "allgather";
  osu.variant = app.count("--variants") ? o.variants.front() : "pure";
  if (app.count("--ops") && o.ops.size() != 1) return "--osu measures one operation per run (as an OSU binary)";
  if (app.count("--variants") && o.variants.size() != 1) return "--osu measures one variant per run";
  if (osu.op == "allgatherv") return "--osu: --ops must be allgather, bcast, allreduce or reduce";
  if (osu.variant == "node-barrier") return "--osu: --variants must be pure, hybrid-barrier or hybrid-flags";
  return "";
}

namespace {
OsuCollective make_collective(const OsuOptions& osu, const BenchOptions& o, const Topology& topo,
                              const CollectiveOptions& options) {
  if (osu.op == "bcast") return make_bcast(topo, options, o.root, osu.max_bytes);
  if (osu.op == "allgather") return make_allgather(topo, options);
  const int root = osu.op == "reduce" ? o.root : -1;
  return with_type(o.reduction.type,
                   [&](auto zero) { return make_reduction<decltype(zero)>(topo, options, o.reduction, root); });
}

const char* osu_title(const std::string& op) {
  if (op == "bcast") return "Broadcast";
  if (op == "allreduce") return "Allreduce";
  if (op == "reduce") return "Reduce";
  return "Allgather";
}
}  // namespace

int run_osu_mode(const OsuOptions& osu, const BenchOptions& o, const Topology& topo) {
  Variant variant = parse_variant(osu.variant);
  variant.options.leaders = o.leaders;
  OsuCollective c = make_collective(osu, o, topo, variant.options);
  const bool reduces = osu.op == "allreduce" || osu.op == "reduce";
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
    std::printf("\n");
    std::fflush(stdout);
  }
  std::int64_t failures = 0;
  for (std::int64_t size = osu.min_bytes; size <= osu.max_bytes; size *= 2) {
    const std::int64_t bytes = size / element * element;  // whole elements; none: skipped
    if (bytes == 0) continue;
    const bool large = bytes > kLargeMessageBytes;
    const int iterations = o.iterations != BenchOptions::kAuto ? o.iterations : (large ? 100 : 1000);
    const int warmup = o.warmup != BenchOptions::kAuto ? o.warmup : (large ? 10 : 100);
    c.setup(bytes);
    const OsuRow row = measure_osu(c, topo.comm(), iterations, warmup, o.validate);
    failures += row.errors;
    if (!root_prints) continue;
    std::printf("%-10lld%18.2f", static_cast<long long>(bytes), row.avg_us);
    if (osu.full) std::printf("%18.2f%18.2f%12d", row.min_us, row.max_us, row.iterations);
    if (o.validate) std::printf("%12s", row.errors ? "Fail" : "Pass");
    std::printf("\n");
    std::fflush(stdout);
  }
  return failures ? 1 : 0;
}

}  // namespace hympi::bench
