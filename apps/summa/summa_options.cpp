#include "summa_options.hpp"

#include <algorithm>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"

namespace hympi::apps {

void add_summa_options(CLI::App& app, SummaOptions& o) {
  add_enum_option(app, "--alg,-a", o.algorithms, name_map<SummaAlgorithm>(), "Algorithms to run (several allowed)")
      ->delimiter(',');
  add_enum_option(app, "--policy", o.policies, policy_names(),
                  "Broadcast policies: pure (MPI_Bcast), hybrid (one panel per node)")
      ->delimiter(',');
  app.add_option("--lookahead", o.lookahead,
                 "Lookahead depth: 0 = broadcast then update, 1 = the next panels' broadcasts fly during the "
                 "current update (several allowed: 0,1)")
      ->delimiter(',')
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  app.add_flag("!--no-shared-inputs", o.share_inputs,
               "Hybrid: do not publish A and B in node-shared memory (then rows/columns inside a node "
               "broadcast panels like across nodes; saves 2x the local input memory)");
  app.add_option("--max-steps", o.max_steps,
                 "SUMMA/HSUMMA: run only the first N outer panel steps of the full k (0 = all). Timing only: "
                 "C is incomplete, so it needs --check none; GF/s count the columns run (k_run)")
      ->capture_default_str();
  add_enum_option(app, "--sync", o.sync, sync_names(), "Node synchronization of the hybrid policy");
  add_problem_options(app, o.problem, kProblemAll);
  app.add_option("--groups", o.groups,
                 "HSUMMA groups IxJ (I divides P, J divides Q); a comma list sweeps them in one process")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--pdgemm-nb", o.pdgemm_nb,
                 "PDGEMM block sizes: 0 = the engine's block-checkerboard distribution, >0 = block-cyclic nb x nb")
      ->delimiter(',')
      ->capture_default_str();
  add_enum_option(app, "--order", o.order, grid_order_names(), "Grid rank order");
  app.add_flag("--group-major", o.group_major, "Number ranks group by group (a group is a node under block placement)");
  app.add_option("--reps,-r", o.reps, "Timed repetitions")->capture_default_str();
  app.add_option("--warmup,-w", o.warmup, "Untimed warm-up repetitions")->capture_default_str();
  app.add_option(
         "--batch", o.batch,
         "Back-to-back multiplies per timed repetition, one closing barrier (time is per multiply; for tiny sizes)")
      ->capture_default_str();
  add_enum_option(app, "--check", o.check, name_map<SummaCheck>(),
                  "Correctness check after the timed runs: residual (random vector, any size), serial (serial dgemm "
                  "reference), pdgemm (PDGEMM on the same arrays), all of them, or none");
  app.add_option("--threads", o.threads, "OpenBLAS threads per rank")->capture_default_str();
  app.add_flag("!--no-reference-dgemm", o.reference_dgemm, "Skip the single-rank DGEMM rate measurement");
  app.add_option("--seed", o.seed, "Seed of the test matrices")->capture_default_str();
  add_common_options(app, o.common, "Append one row per repetition to this CSV file ('-' = stdout)");
}

SummaShapes check_summa_options(const SummaOptions& o, int comm_size) {
  SummaShapes shapes;
  shapes.problem = check_problem_options(o.problem, comm_size, GridRanks::must_match);
  require(o.reps >= 1, "--reps must be >= 1");
  require(o.warmup >= 0, "--warmup must be >= 0");
  require(o.batch >= 1, "--batch must be >= 1");
  require(o.max_steps >= 0, "--max-steps must be >= 0");
  require(o.max_steps == 0 || o.check == SummaCheck::none,
          "--max-steps " + std::to_string(o.max_steps) + " leaves C incomplete: use --check none");
  require(o.max_steps == 0 || std::find(o.algorithms.begin(), o.algorithms.end(), SummaAlgorithm::pdgemm) == o.algorithms.end(),
          "--max-steps applies to summa/hsumma only, not pdgemm");
  require(o.threads >= 1, "--threads must be >= 1");
  for (auto nb : o.pdgemm_nb) require(nb >= 0, "--pdgemm-nb must be >= 0 (0 = the engine's distribution)");
  require(!o.groups.empty(), "--groups needs at least one IxJ");
  for (const auto& g : o.groups) shapes.groups.push_back(parse_grid(g, "--groups"));
  return shapes;
}

}  // namespace hympi::apps
