#include "bench_options.hpp"

#include "hympi/error.hpp"
#include "operation.hpp"
#include "reduce_types.hpp"

namespace hympi::bench {

namespace {
constexpr std::int64_t kLargeMessageBytes = 8192;         // OSU's LARGE_MESSAGE_SIZE
constexpr std::int64_t kMaxSize = std::int64_t{1} << 27;  // 1 GiB of doubles per rank: beyond any laptop
}  // namespace

std::vector<std::int64_t> BenchOptions::sizes() const {
  std::vector<std::int64_t> list;
  for (std::int64_t size = min_size; size <= max_size; size *= 2) list.push_back(size);
  return list;
}

int BenchOptions::iterations_for(std::int64_t size) const {
  if (iterations != kAuto) return iterations;
  return size * static_cast<std::int64_t>(sizeof(double)) <= kLargeMessageBytes ? 1000 : 100;
}

int BenchOptions::warmup_for(std::int64_t size) const {
  if (warmup != kAuto) return warmup;
  return size * static_cast<std::int64_t>(sizeof(double)) <= kLargeMessageBytes ? 100 : 10;
}

void add_bench_options(CLI::App& app, BenchOptions& o) {
  app.add_option("--min-size", o.min_size,
                 "Smallest message, in doubles (allreduce/reduce: elements of --type) per rank")
      ->capture_default_str();
  app.add_option("--max-size", o.max_size,
                 "Largest message, in doubles (elements) per rank (sizes double from --min-size)")
      ->capture_default_str();
  app.add_option("-i,--iterations", o.iterations,
                 "Timed iterations per size (default: 1000 up to 8 KiB per rank, 100 above)");
  app.add_option("-x,--warmup", o.warmup, "Untimed warm-up iterations per size (default: 100 up to 8 KiB, 10 above)");
  app.add_flag("-c,--validate", o.validate,
               "Check every result against the expected data after every iteration (data change each iteration)");
  app.add_flag("--untimed-write", o.untimed_write,
               "Write this rank's contribution before the timer starts: time the exchange alone (default: the "
               "write is timed, for pure and hybrid alike)");
  app.add_option("--cache", o.cache,
                 "warm: the same buffers every iteration, as OSU (cached); cold: between iterations, untimed, "
                 "the ranks of a host read and write twice its last-level cache (sysfs; 32 MiB if unknown), "
                 "so every iteration starts with evicted buffers")
      ->check(CLI::IsMember({"warm", "cold"}))
      ->capture_default_str();
  app.add_option("--root", o.root, "Root rank of bcast, reduce, gather and scatter (any rank)")->capture_default_str();
  app.add_option("--ops", o.ops,
                 "Operations, comma separated (allreduce and reduce: elements of --type, by --op; gather and "
                 "scatter: size doubles per rank to / from --root, the root holding size x ranks)")
      ->delimiter(',')
      ->check(CLI::IsMember(operation_names()))
      ->capture_default_str();
  app.add_option("--type", o.reduction.type, "Element type of allreduce/reduce")
      ->check(CLI::IsMember(reduce_type_names()))
      ->capture_default_str();
  app.add_option("--op", o.reduction.op, "Operation of allreduce/reduce")
      ->check(CLI::IsMember(reduce_op_names()))
      ->capture_default_str();
  app.add_option("--baseline", o.baseline,
                 "The MPI's collectives under pure (set before MPI_Init, recorded in the CSV): default (its own "
                 "choice) or hierarchical (Open MPI: coll/han, OMPI_MCA_coll_han_priority=100; MPICH: "
                 "MPIR_CVAR_DEVICE_COLLECTIVES=none and the smp allreduce/reduce/bcast algorithms); exit 2 when this "
                 "MPI has none")
      ->check(CLI::IsMember({"default", "hierarchical"}))
      ->capture_default_str();
  app.add_option("--variants", o.variants,
                 "Variants, comma separated: pure (MPI collective), hybrid-barrier, hybrid-flags "
                 "(shared node copy, node sync by MPI_Barrier or flags), node-barrier (MPI_Barrier on the "
                 "node communicator: the floor); a collective variant with @G (e.g. pure@4, hybrid-flags@auto) "
                 "runs the core's grouped collectives with G groups (auto: the route model's G; the CSV records "
                 "the G used and the model's time)")
      ->delimiter(',')
      ->check(CLI::Validator(
          [](std::string& name) {
            try {
              parse_variant(name);
              return std::string();
            } catch (const std::exception& e) {
              return std::string(e.what());
            }
          },
          "VARIANT[@G]"))
      ->capture_default_str();
  app.add_option("--leaders", o.leaders,
                 "Bridge ranks per node of the hybrid variants (multi-leader; 0 = automatic, 1 = one leader)")
      ->capture_default_str();
  app.add_flag("!--no-progress", o.progress, "No progress line on stderr");
  apps::add_common_options(app, o.common,
                           "Append one row per operation x variant x size to this CSV file ('-' = stdout)");
}

namespace {
std::string problem_of(const BenchOptions& o, int comm_size) {
  if (o.min_size < 1) return "--min-size must be >= 1 (got " + std::to_string(o.min_size) + ")";
  if (o.max_size < 1) return "--max-size must be >= 1 (got " + std::to_string(o.max_size) + ")";
  if (o.max_size > kMaxSize)
    return "--max-size must be <= " + std::to_string(kMaxSize) + " doubles (got " + std::to_string(o.max_size) + ")";
  if (o.min_size > o.max_size)
    return "--min-size (" + std::to_string(o.min_size) + ") is larger than --max-size (" + std::to_string(o.max_size) +
           ")";
  if (o.iterations != BenchOptions::kAuto && o.iterations < 1)
    return "--iterations must be >= 1 (got " + std::to_string(o.iterations) + ")";
  if (o.warmup != BenchOptions::kAuto && o.warmup < 0)
    return "--warmup must be >= 0 (got " + std::to_string(o.warmup) + ")";
  if (o.root < 0 || o.root >= comm_size)
    return "--root " + std::to_string(o.root) + " is not a rank of the " + std::to_string(comm_size) +
           "-rank communicator (0.." + std::to_string(comm_size - 1) + ")";
  if (o.leaders < 0) return "--leaders must be >= 0 (got " + std::to_string(o.leaders) + ")";
  if (o.ops.empty()) return "--ops is empty";
  if (o.variants.empty()) return "--variants is empty";
  return "";
}
}  // namespace

void check_bench_options(const BenchOptions& o, int comm_size) {
  if (auto problem = problem_of(o, comm_size); !problem.empty()) throw Error(ErrorCode::invalid_argument, problem);
}

}  // namespace hympi::bench
