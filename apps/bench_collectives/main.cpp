// hympi-bench-collectives: OSU-style latency of hympi's Allgather(v) and Bcast
// under the pure and hybrid policies, against MPI_Barrier on the node
// communicator (Zhou et al., ICPP'19, Figs 7-10). One object per variant is
// created per operation and reused across sizes; variants are interleaved size
// by size so that they see the same machine conditions.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "bench_options.hpp"
#include "csv_writer.hpp"
#include "hympi/error.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"
#include "osu_mode.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "run_info.hpp"

using namespace hympi;
using namespace hympi::bench;

namespace {

constexpr const char* kName = "hympi-bench-collectives";

// Checks on every rank give the same answer (same argv, same size), so every
// rank returns the same code without talking to the others; rank 0 prints.
int usage_error(int rank, const std::string& message) {
  if (rank == 0) std::cerr << kName << ": error: " << message << "\n";
  return 2;
}

// Opens the CSV on rank 0; every rank learns whether that worked.
bool open_csv(const Topology& topo, const std::string& path, apps::CsvWriter& csv) {
  int ok = 1;
  if (topo.rank() == 0) {
    try {
      csv = apps::CsvWriter(path, csv_columns());
    } catch (const std::exception& e) {
      std::cerr << kName << ": error: " << e.what() << "\n";
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, topo.comm());
  return ok == 1;
}

// Runs every variant of one operation over all sizes; returns its rows.
std::vector<Result> run_operation(const OperationKind& kind, const std::vector<Variant>& variants,
                                  const BenchOptions& o, const Topology& topo, const apps::RunInfo& info,
                                  apps::CsvWriter& csv, Progress& progress) {
  const int root = kind.name == "bcast" ? o.root : -1;
  std::vector<std::unique_ptr<Operation>> ops;
  for (const auto& v : variants)
    ops.push_back(v.runs_collective ? kind.make(topo, v, o.root, o.max_size) : make_node_barrier(topo));

  std::vector<Result> rows;
  for (auto size : o.sizes()) {
    progress.step(kind.name + " " + std::to_string(size) + " doubles");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      ops[v]->resize(size);
      Result r{kind.name, variants[v], root, size,
               measure(*ops[v], topo, o.iterations_for(size), o.warmup_for(size), o.validate, !o.untimed_write)};
      if (topo.rank() == 0) csv.row(csv_fields(info, r));
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

int run(int argc, char** argv, int rank, int size) {
  CLI::App app{
      "OSU-style latency benchmark of hympi's collectives: Allgather, Allgatherv (irregular counts) and Bcast "
      "under the pure (MPI collective) and hybrid (one shared copy per node; barrier or flag sync) policies, with "
      "MPI_Barrier on the node communicator as the floor. Prints OSU tables on stdout, the target ratios at the "
      "end, and optionally a CSV.",
      kName};
  BenchOptions o;
  add_bench_options(app, o);
  OsuOptions osu;
  add_osu_options(app, osu);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) return app.exit(e);
    return e.get_exit_code();
  }
  if (auto problem = check_bench_options(o, size); !problem.empty()) return usage_error(rank, problem);
  if (auto problem = check_osu_options(osu, o, app); !problem.empty()) return usage_error(rank, problem);

  LayoutSpec spec;
  try {
    spec = o.layout.resolve();
    if (spec.emulated()) assign_emulated_nodes(size, spec);  // same verdict on every rank, before any collective
  } catch (const std::exception& e) {
    return usage_error(rank, std::string("bad node layout: ") + e.what());
  }
  std::vector<Variant> variants;
  for (const auto& name : o.variants) variants.push_back(parse_variant(name));

  const Topology& topo = Topology::of(MPI_COMM_WORLD, spec);
  if (osu.enabled) return run_osu_mode(osu, o, topo);
  const apps::RunInfo info = apps::gather_run_info(topo);
  apps::CsvWriter csv;
  if (!open_csv(topo, o.csv, csv)) return 1;

  Progress progress(rank == 0 && o.progress, static_cast<int>(o.ops.size() * o.sizes().size()));
  std::vector<Result> results;
  for (const auto& op : o.ops) {
    auto rows = run_operation(find_operation(op), variants, o, topo, info, csv, progress);
    results.insert(results.end(), rows.begin(), rows.end());
  }

  std::int64_t failures = 0;
  for (const auto& r : results) failures += r.m.errors;
  if (rank == 0) {
    print_ratios(std::cout, info, results);
    if (failures) std::cerr << kName << ": validation FAILED: " << failures << " wrong elements\n";
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 0;
  try {
    rc = run(argc, argv, rank, size);
  } catch (const std::exception& e) {
    // A failure inside a collective may leave the other ranks waiting: abort them all.
    std::cerr << kName << ": rank " << rank << ": error: " << e.what() << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
