// OSU mode of hympi-bench-collectives (--osu): output and method of the OSU
// micro-benchmarks, so that tools that read OSU output (ReFrame's OSU checks parse
// `^<bytes>\s+<latency>`) read ours and a variant can be set beside osu_allgather /
// osu_bcast. Sizes in bytes (-m [MIN:]MAX), -f for min/max/iterations, the same
// buffer every iteration (written once per size; again before each iteration only
// with -c, untimed), only the collective timed.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "bench_options.hpp"
#include "hympi/topology.hpp"

namespace hympi::bench {

struct OsuOptions {
  bool enabled = false;  // --osu
  std::string sizes;     // -m [MIN:]MAX, bytes ("" = OSU's defaults)
  bool full = false;     // -f: min, max and iterations columns
  bool tail = false;     // -z: P50, P90, P99 tail latency columns (OSU's)
  bool vs_mpi = false;   // --vs-mpi: medians of the variant and of the plain MPI call, and their ratio
  std::int64_t min_bytes = 1;
  std::int64_t max_bytes = std::int64_t{1} << 20;  // OSU's MAX_MESSAGE_SIZE
  std::string op;                                  // allgather | bcast | allreduce | reduce | gather | scatter
  std::string variant;                             // pure | hybrid-barrier | hybrid-flags
};

// Parses OSU's -m argument: "MAX", "MIN:MAX" or "MIN:" (bytes). On success sets
// min/max and returns ""; else a message naming the problem.
std::string parse_osu_sizes(const std::string& text, std::int64_t& min_bytes, std::int64_t& max_bytes);

void add_osu_options(CLI::App& app, OsuOptions& osu);

// Resolves -m and the operation/variant (one of each, as an OSU binary measures);
// "" when fine, else a message naming the bad option. Same verdict on every rank.
std::string check_osu_options(OsuOptions& osu, const BenchOptions& options, const CLI::App& app);

// Collective over topo.comm(): measures and prints (rank 0) one OSU table. Returns
// the exit code (1 if -c found wrong data).
int run_osu_mode(const OsuOptions& osu, const BenchOptions& options, const Topology& topo);

}  // namespace hympi::bench
