// hympi-bench-collectives: OSU-style latency of hympi's Allgather(v), Bcast,
// Allreduce, Reduce, Gather and Scatter under the pure and hybrid policies, against MPI_Barrier on the node
// communicator (Zhou et al., ICPP'19, Figs 7-10). One object per variant is
// created per operation and reused across sizes; variants are interleaved size
// by size so that they see the same machine conditions.
#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "app.hpp"
#include "baseline.hpp"
#include "bench_options.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "osu_mode.hpp"
#include "progress.hpp"
#include "record.hpp"
#include "reduce_types.hpp"
#include "report.hpp"
#include "run_info.hpp"

using namespace hympi;
using namespace hympi::bench;

namespace {

constexpr apps::AppInfo kApp{
    "hympi-bench-collectives",
    "OSU-style latency benchmark of hympi's collectives: Allgather, Allgatherv (irregular counts), Bcast, "
    "Allreduce, Reduce, Gather and Scatter (to / from --root) under the pure (MPI collective) and hybrid (one "
    "shared copy per node; barrier or flag sync) policies, with "
    "MPI_Barrier on the node communicator as the floor. Prints OSU tables on stdout, the target ratios at the "
    "end, and optionally a CSV."};

// Runs every variant of one operation over all sizes; returns its rows.
std::vector<Result> run_operation(const OperationKind& kind, const std::vector<Variant>& variants,
                                  const BenchOptions& o, const Topology& topo, const apps::RunInfo& info,
                                  const std::string& baseline_setting, apps::RecordCsv& csv, Progress& progress,
                                  CacheEvictor* evictor) {
  const int root = kind.rooted ? o.root : -1;
  std::vector<std::unique_ptr<Operation>> ops;
  for (const auto& v : variants)
    ops.push_back(std::make_unique<Operation>(v.runs_collective ? kind.make(topo, v, DataSetting{o.root})
                                                                : make_node_barrier(topo)));

  std::vector<Result> rows;
  for (auto size : o.sizes()) {
    progress.step(kind.name + " " + std::to_string(size) + " doubles");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      ops[v]->resize(size);
      Result r{
          kind.name,
          variants[v],
          root,
          size,
          measure(*ops[v], topo, o.iterations_for(size), o.warmup_for(size), o.validate,
                  o.untimed_write ? WriteMode::untimed : WriteMode::timed, evictor),
          kind.reduces ? o.reduction.type : "double",
          kind.reduces ? o.reduction.op : "",
          o.baseline,
          baseline_setting};
      if (variants[v].runs_collective) {
        const std::int64_t bytes = grouping_bytes(kind, size, r.m.result_doubles, topo.size(), bytes_of(r.type));
        const int leader_root = std::max(r.root, 0);  // rootless operations: -1
        r.groups = effective_groups(topo, variants[v].options, bytes, leader_root);
        r.groups_model_s = grouped_model_seconds(topo, variants[v].options, bytes, leader_root);
        if (variants[v].options.groups != 1) r.groups_model = grouped_model_machine();
      }
      csv.write(record(r));
      rows.push_back(r);
    }
  }
  if (topo.rank() == 0) {
    progress.finish();
    for (const auto& v : variants) {
      std::vector<Result> mine;
      for (const auto& r : rows)
        if (r.variant.name == v.name) mine.push_back(r);
      print_table(std::cout, kind.title, v, info, mine, o.validate);
    }
  }
  return rows;
}

// The benchmark's own options and OSU mode's (--osu, -m, -f).
struct Options {
  BenchOptions bench;
  OsuOptions osu;
};

void add_options(CLI::App& cli, Options& o) {
  add_bench_options(cli, o.bench);
  add_osu_options(cli, o.osu);
  // OSU mode's checks depend on which options were given, which only the parser knows.
  cli.callback([&cli, &o] {
    if (auto problem = check_osu_options(o.osu, o.bench, cli); !problem.empty()) throw CLI::ValidationError(problem);
  });
}

int run(Options& all) {
  BenchOptions& o = all.bench;
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  check_bench_options(o, size);
  const LayoutSpec spec = o.common.layout.resolve(size);
  std::vector<Variant> variants;
  for (const auto& name : o.variants) {
    variants.push_back(parse_variant(name));
    variants.back().options.leaders = o.leaders;
  }

  const std::string setting = check_baseline(o.baseline);
  const Topology& topo = Topology::of(MPI_COMM_WORLD, spec);
  if (all.osu.enabled) return run_osu_mode(all.osu, o, topo);
  const apps::RunInfo info = apps::gather_run_info(topo);
  const Result columns;  // a named row: GCC 12 warns (falsely) on a temporary here
  auto csv = apps::RecordCsv::open(topo.comm(), o.common.csv, record(columns), &info);

  Progress progress(rank == 0 && o.progress, static_cast<int>(o.ops.size() * o.sizes().size()));
  std::unique_ptr<CacheEvictor> evictor;
  if (o.cache == "cold") evictor = std::make_unique<CacheEvictor>(MPI_COMM_WORLD);
  std::vector<Result> results;
  for (const auto& op : o.ops) {
    auto rows =
        run_operation(find_operation(op, o.reduction), variants, o, topo, info, setting, csv, progress, evictor.get());
    results.insert(results.end(), rows.begin(), rows.end());
  }

  std::int64_t failures = 0;
  for (const auto& r : results) failures += r.m.errors;
  if (rank == 0) {
    print_ratios(std::cout, info, results);
    if (failures) std::cerr << kApp.name << ": validation FAILED: " << failures << " wrong elements\n";
  }
  return failures ? apps::kCheckFailed : apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  apply_baseline_environment(argc, argv);  // read by MPI_Init
  return apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
