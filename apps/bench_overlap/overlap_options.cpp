#include "overlap_options.hpp"

#include "hympi/error.hpp"

namespace hympi::overlap {

void add_overlap_options(CLI::App& app, OverlapOptions& o) {
  app.add_option("--ops", o.ops, "allgather (doubles per rank), allreduce (sum of doubles), comma separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"allgather", "allreduce"}))
      ->capture_default_str();
  app.add_option("--sizes", o.sizes, "Doubles per rank (allgather) or vector length (allreduce), comma separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--variants", o.variants,
                 "mpi (MPI_Iallgather / MPI_Iallreduce), pure, hybrid (hympi start/test/wait)")
      ->delimiter(',')
      ->check(CLI::IsMember({"mpi", "pure", "hybrid"}))
      ->capture_default_str();
  app.add_option("--polls", o.polls, "test() calls spread over the computation (OSU -t), comma separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--leaders", o.leaders, "Bridge ranks per node of the hybrid variant (0 = automatic)")
      ->capture_default_str();
  app.add_flag("--progress-thread", o.progress_thread,
               "The hybrid variant completes in a progress thread (CollectiveOptions::progress_thread; MPI is then "
               "initialised with MPI_THREAD_MULTIPLE)");
  app.add_option("-i,--iterations", o.iterations, "Timed iterations per point")->capture_default_str();
  app.add_option("-x,--warmup", o.warmup, "Untimed warm-up iterations per point")->capture_default_str();
  app.add_option("--cache", o.cache,
                 "warm: the same buffers every iteration, as OSU; cold: before every iteration, untimed, the ranks "
                 "of a host read and write twice its last-level cache")
      ->check(CLI::IsMember({"warm", "cold"}))
      ->capture_default_str();
  apps::add_common_options(app, o.common, "Append one row per size x variant x polls to this CSV file ('-' = stdout)");
}

namespace {
std::string problem_of(const OverlapOptions& o) {
  for (auto s : o.sizes)
    if (s < 1 || s > (std::int64_t{1} << 24))
      return "--sizes must be in [1, 16777216] doubles (got " + std::to_string(s) + ")";
  for (int p : o.polls)
    if (p < 0) return "--polls must be >= 0 (got " + std::to_string(p) + ")";
  if (o.leaders < 0) return "--leaders must be >= 0 (got " + std::to_string(o.leaders) + ")";
  if (o.iterations < 1) return "--iterations must be >= 1 (got " + std::to_string(o.iterations) + ")";
  if (o.warmup < 0) return "--warmup must be >= 0 (got " + std::to_string(o.warmup) + ")";
  if (o.ops.empty() || o.sizes.empty() || o.variants.empty() || o.polls.empty())
    return "--ops, --sizes, --variants and --polls need a value";
  return "";
}
}  // namespace

void check_overlap_options(const OverlapOptions& o) {
  if (auto problem = problem_of(o); !problem.empty()) throw Error(ErrorCode::invalid_argument, problem);
}

}  // namespace hympi::overlap
