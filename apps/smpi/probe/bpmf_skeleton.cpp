// hympi-smpi-bpmf-skeleton: hympi-bpmf's Gibbs iteration (bpmf/src/sampler.cpp,
// Sampler::step) reduced to its simulated costs, for Zhou's Fig 12 at 24-1024 simulated cores.
// What it keeps from the real sampler, in its order, because each moves the simulated time:
//   - the partition: items of each side balanced by bpmf::item_cost over the ranks
//     (Sampler::build_side), so each rank samples what it would really own;
//   - the collective objects, created as the sampler creates them, with its policy: per side
//     the latent exchange (hympi::Allgatherv of K doubles per item), the hyperparameter sums
//     (bpmf::ExactSumReduction of K + K(K+1)/2 sums), the test errors (2 sums), the timing
//     max (hympi::Allreduce of 4 doubles) and, with adaptive noise, the residual sum (1);
//   - per iteration and side: the sums' reduction, the sampling charged as compute (below),
//     the exchange; then the residual sum (adaptive), the test errors, the timing max.
// The sampling charge: sum over the rank's items of item_cost(ratings, K) (the kernel's cost
// model, in ns) x --ns-per-cost (seconds of this host per cost unit: measured against the real
// sampler, apps/smpi/README.md "BPMF skeleton") x --compute-scale (the simulated core's time
// over this host's), charged as smpi_execute_flops at the simulated host's speed. The sampled
// values are not computed: the exchanged buffers hold garbage, which costs no simulated time.
// Output: per policy one CSV row (the slowest rank's times, as hympi-bpmf reports them).
#include <mpi.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bpmf/exact_sum.hpp"
#include "bpmf/item_sampler.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/partition.hpp"
#include "hympi/collectives.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"

#include "root_csv.hpp"

namespace {

constexpr const char* kName = "hympi-smpi-bpmf-skeleton";

struct Options {
  std::string train, csv;
  int K = 32;
  int iterations = 20;
  std::vector<std::string> policies{"pure", "hybrid"};
  std::string sync = "flags";
  std::string noise = "fixed";
  double ns_per_cost = 1e-9;
  double compute_scale = 1.0;
};

// One side's items: ratings per item and this rank's range of them.
struct Side {
  std::vector<std::int64_t> counts;
  std::vector<std::int64_t> per_rank;  // items each rank owns
  std::int64_t begin = 0, end = 0;
  double cost = 0;  // sum of item_cost over the rank's items
};

Side partition(std::vector<std::int64_t> counts, int K, int rank, int ranks) {
  Side s;
  s.counts = std::move(counts);
  std::vector<std::int64_t> weights(s.counts.size());
  for (std::size_t i = 0; i < s.counts.size(); ++i) weights[i] = bpmf::item_cost(s.counts[i], K);
  const auto bounds = bpmf::balanced_ranges(weights, ranks);
  for (int r = 0; r < ranks; ++r) s.per_rank.push_back(bounds[r + 1] - bounds[r]);
  s.begin = bounds[rank];
  s.end = bounds[rank + 1];
  for (std::int64_t i = s.begin; i < s.end; ++i) s.cost += static_cast<double>(weights[i]);
  return s;
}

// Simulated seconds of compute on this rank's simulated core.
void charge(double seconds) {
  if (seconds > 0) smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
}

struct Times {
  double total = 0, sampling = 0, exchange = 0, sync = 0;
};

// One run of `iterations` Gibbs iterations under one policy (collectives created first, as the
// sampler's constructor does; the creation is not timed, as hympi-bpmf times iterations only).
Times run(const Options& o, hympi::Policy policy, hympi::SyncKind sync, Side (&sides)[2]) {
  const hympi::Topology& topo = hympi::Topology::of(MPI_COMM_WORLD, hympi::layout_from_env());
  hympi::CollectiveOptions opts;
  opts.policy = policy;
  opts.sync = sync;
  const auto K = static_cast<std::size_t>(o.K);
  const bool adaptive = o.noise == "adaptive";
  std::unique_ptr<hympi::Allgatherv> exchange[2];
  for (int side = 0; side < 2; ++side)
    exchange[side] = hympi::Allgatherv::create(topo, sides[side].per_rank, sizeof(double) * K, opts);
  bpmf::ExactSumReduction hyper(topo, K + K * (K + 1) / 2, opts), test(topo, 2, opts);
  std::unique_ptr<bpmf::ExactSumReduction> residual;
  if (adaptive) residual = std::make_unique<bpmf::ExactSumReduction>(topo, 1, opts);
  auto timing = hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_MAX, opts);
  bpmf::ExactSums hyper_sums(K + K * (K + 1) / 2), test_sums(2), residual_sums(1);

  Times worst;
  for (int it = 0; it < o.iterations; ++it) {
    const double start = MPI_Wtime();
    double sampling = 0, exchanged = 0, synced = 0;
    for (int side = 0; side < 2; ++side) {
      double t = MPI_Wtime();
      hyper.run(hyper_sums);
      synced += MPI_Wtime() - t;
      t = MPI_Wtime();
      charge(sides[side].cost * o.ns_per_cost * o.compute_scale);
      sampling += MPI_Wtime() - t;
      t = MPI_Wtime();
      exchange[side]->run();
      exchanged += MPI_Wtime() - t;
    }
    double t = MPI_Wtime();
    if (residual) residual->run(residual_sums);
    test.run(test_sums);
    synced += MPI_Wtime() - t;
    double* local = timing->slot_as<double>();
    local[0] = MPI_Wtime() - start;
    local[1] = sampling;
    local[2] = exchanged;
    local[3] = synced;
    timing->run();
    const double* global = timing->result_as<double>();
    worst.total += global[0];
    worst.sampling += global[1];
    worst.exchange += global[2];
    worst.sync += global[3];
  }
  return worst;
}

int finish(int code) {
  MPI_Finalize();
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options o;
  CLI::App app{"hympi-bpmf's iteration reduced to its simulated costs (SMPI builds; apps/smpi/README.md)", kName};
  app.add_option("--train", o.train, "Training matrix (Matrix Market): the item counts and partition")->required();
  app.add_option("-K,--latent", o.K, "Latent dimension")->check(CLI::Range(1, 1024))->capture_default_str();
  app.add_option("--iterations", o.iterations, "Gibbs iterations simulated")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--policy", o.policies, "pure and/or hybrid (comma list: one run each, in one process)")
      ->delimiter(',')
      ->check(CLI::IsMember({"pure", "hybrid"}))
      ->capture_default_str();
  app.add_option("--sync", o.sync, "Node synchronization of the hybrid exchange")
      ->check(CLI::IsMember({"flags", "barrier"}))
      ->capture_default_str();
  app.add_option("--noise", o.noise, "fixed or adaptive (adaptive adds the residual sum per iteration)")
      ->check(CLI::IsMember({"fixed", "adaptive"}))
      ->capture_default_str();
  app.add_option("--ns-per-cost", o.ns_per_cost, "Host seconds per item_cost unit (measured: README)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--compute-scale", o.compute_scale, "Simulated core's time over this host's for the sampling")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--csv", o.csv, "Write the rows here (rank 0; - for stdout)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return finish(0);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", kName, e.what());
    return finish(2);
  }

  // Every rank reads the counts (the real app's ranks read the file too); a bad file is
  // refused on every rank, which all read the same bytes.
  bpmf::Ratings train;
  try {
    train = bpmf::read_matrix_market(o.train);
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", kName, e.what());
    return finish(2);
  }
  std::vector<std::int64_t> row_counts(static_cast<std::size_t>(train.rows)), col_counts(train.cols);
  for (const auto& e : train.entries) {
    ++row_counts[static_cast<std::size_t>(e.row)];
    ++col_counts[static_cast<std::size_t>(e.col)];
  }
  Side sides[2] = {partition(row_counts, o.K, rank, ranks), partition(col_counts, o.K, rank, ranks)};

  std::FILE* csv = nullptr;
  if (!hympi_probe::open_root_csv(o.csv, kName, &csv)) return finish(2);
  const int nodes = hympi::Topology::of(MPI_COMM_WORLD, hympi::layout_from_env()).num_nodes();
  if (csv)
    std::fputs("algorithm,policy,sync,noise,ranks,nodes,K,rows,cols,ratings,iterations,ns_per_cost,compute_scale,"
               "time_s,time_per_iteration_s,sampling_s,exchange_s,sync_s\n",
               csv);
  for (const std::string& p : o.policies) {
    const auto policy = p == "pure" ? hympi::Policy::pure : hympi::Policy::hybrid;
    const auto sync = o.sync == "flags" ? hympi::SyncKind::flags : hympi::SyncKind::barrier;
    MPI_Barrier(MPI_COMM_WORLD);
    const Times t = run(o, policy, sync, sides);
    if (rank == 0) {
      std::printf("bpmf %-6s ranks=%d nodes=%d K=%d iterations=%d: %.9g s (%.9g s per iteration; sampling %.9g, "
                  "exchange %.9g, sync %.9g)\n",
                  p.c_str(), ranks, nodes, o.K, o.iterations, t.total, t.total / o.iterations, t.sampling,
                  t.exchange, t.sync);
      std::fflush(stdout);
    }
    if (csv)
      std::fprintf(csv, "bpmf,%s,%s,%s,%d,%d,%d,%lld,%lld,%zu,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p.c_str(),
                   p == "pure" ? "-" : o.sync.c_str(), o.noise.c_str(), ranks, nodes, o.K,
                   static_cast<long long>(train.rows), static_cast<long long>(train.cols), train.entries.size(),
                   o.iterations, o.ns_per_cost, o.compute_scale, t.total, t.total / o.iterations, t.sampling,
                   t.exchange, t.sync);
  }
  if (csv && csv != stdout) std::fclose(csv);
  return finish(0);
}
