// Pure and hybrid allgather, allgatherv and bcast checked bit-exactly against plain
// MPI over many iterations with data that changes every iteration. Ranks jitter
// so that a reuse race (overwriting a slot a neighbour still reads) shows up.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "collective_values.hpp"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::jitter;
using hympi::test::value;

namespace {

// Dawdling steps of jitter() in this test.
constexpr int kJitterUs = 50;

struct Variant {
  hympi::Policy policy;
  hympi::SyncKind sync;
  std::string name() const { return std::string(to_string(policy)) + "/" + to_string(sync); }
};
const Variant kVariants[] = {{hympi::Policy::pure, hympi::SyncKind::barrier},
                             {hympi::Policy::hybrid, hympi::SyncKind::barrier},
                             {hympi::Policy::hybrid, hympi::SyncKind::flags}};

int iterations_for(std::int64_t total_elements) {
  return total_elements > 100000 ? 4 : 30;
}

void test_allgatherv(const hympi::Topology& topo, const std::vector<std::int64_t>& counts, const std::string& label) {
  const int rank = topo.rank();
  const auto displs = hympi::displacements(counts);
  const std::int64_t total = displs.back() + counts.back();
  std::vector<int> icounts(counts.begin(), counts.end()), idispls(displs.begin(), displs.end());
  std::vector<double> expected(total);
  for (const auto& v : kVariants) {
    auto coll = hympi::Allgatherv::create(topo, counts, sizeof(double), {v.policy, v.sync});
    const int iterations = iterations_for(total);
    int bad = 0;
    for (int it = 0; it < iterations; ++it) {
      double* mine = coll->slot_as<double>();
      for (std::int64_t i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i, it);
      coll->run();
      // The plain MPI reference, on private memory.
      std::vector<double> own(counts[rank]);
      for (std::int64_t i = 0; i < counts[rank]; ++i) own[i] = value(rank, i, it);
      MPI_Allgatherv(own.data(), icounts[rank], MPI_DOUBLE, expected.data(), icounts.data(), idispls.data(), MPI_DOUBLE,
                     topo.comm());
      jitter(rank, it, kJitterUs);
      const double* got = coll->result_as<double>();
      if (total && std::memcmp(got, expected.data(), total * sizeof(double)) != 0) ++bad;
    }
    check(bad == 0, label + " " + v.name() + ": " + std::to_string(bad) + " of " + std::to_string(iterations) +
                        " iterations differ from MPI_Allgatherv");
    check(coll->displs() == displs, label + " " + v.name() + ": displacements");
  }
}

void test_bcast(const hympi::Topology& topo, std::int64_t count) {
  const int rank = topo.rank();
  for (const auto& v : kVariants) {
    auto coll = hympi::Bcast::create(topo, count, sizeof(double), {v.policy, v.sync});
    std::vector<double> expected(count);
    int bad = 0, runs = 0;
    const int rounds = count > 100000 ? 1 : 4;
    for (int round = 0; round < rounds; ++round) {
      for (int root = 0; root < topo.size(); ++root, ++runs) {
        // Varying counts (up to capacity) exercise partial broadcasts.
        // Rounds 2, 3: the root passes its own contiguous data instead of writing buffer().
        const std::int64_t n = (round % 2) ? count / 2 : count;
        const bool direct = round >= 2;
        std::vector<double> own(direct && rank == root ? n : 0);
        if (rank == root) {
          double* buf = direct ? own.data() : coll->buffer_as<double>();
          for (std::int64_t i = 0; i < n; ++i) buf[i] = value(root, i, runs);
        }
        coll->run(root, n, direct && rank == root ? own.data() : nullptr);
        if (rank == root)
          for (std::int64_t i = 0; i < n; ++i) expected[i] = value(root, i, runs);
        MPI_Bcast(expected.data(), static_cast<int>(n), MPI_DOUBLE, root, topo.comm());
        jitter(rank, runs, kJitterUs);
        if (n && std::memcmp(coll->result(), expected.data(), n * sizeof(double)) != 0) ++bad;
      }
    }
    check(bad == 0, "bcast count " + std::to_string(count) + " " + v.name() + ": " + std::to_string(bad) + " of " +
                        std::to_string(runs) + " broadcasts differ from MPI_Bcast");
  }
}

// start/wait with overlap: result k must stay readable while k+1 flies and after
// it lands, until this rank's start(k+2). Every rank checks k-1 at both points
// (with jitter, so fast roots would overwrite a slot a slow reader still needs).
// Without overlap, start/wait pairs must equal run().
void test_bcast_overlap(const hympi::Topology& topo, std::int64_t count) {
  const int rank = topo.rank(), p = topo.size();
  for (const auto& v : kVariants)
    for (bool overlap : {true, false}) {
      auto coll = hympi::Bcast::create(topo, count, sizeof(double), {v.policy, v.sync, overlap});
      const int steps = count > 100000 ? 6 : 3 * p + 4;
      auto root_of = [&](int k) { return (k * 5 + 1) % p; };
      auto correct = [&](const double* got, int k) {
        for (std::int64_t i = 0; i < count; i += std::max<std::int64_t>(1, count / 97))
          if (got[i] != value(root_of(k), i, k)) return false;
        return count == 0 || got[count - 1] == value(root_of(k), count - 1, k);
      };
      int bad = 0;
      const double* previous = nullptr;
      std::vector<double> own[3];  // odd steps: the root sends its own data (must outlive its use)
      for (int k = 0; k < steps; ++k) {
        const bool direct = k % 2 == 1 && rank == root_of(k);
        if (rank == root_of(k)) {
          own[k % 3].resize(count);
          double* buf = direct ? own[k % 3].data() : coll->buffer_as<double>();
          for (std::int64_t i = 0; i < count; ++i) buf[i] = value(root_of(k), i, k);
        }
        coll->start(root_of(k), count, direct ? own[k % 3].data() : nullptr);
        jitter(rank, k, kJitterUs);
        if (overlap && previous && !correct(previous, k - 1)) ++bad;  // in flight
        coll->wait();
        if (overlap && previous && !correct(previous, k - 1)) ++bad;  // landed
        previous = coll->result_as<double>();
        if (!correct(previous, k)) ++bad;
        jitter(rank, k + 1, kJitterUs);
      }
      check(bad == 0, "bcast start/wait count " + std::to_string(count) + " " + v.name() + (overlap ? " overlap" : "") +
                          ": " + std::to_string(bad) + " stale or wrong reads");
    }
}

// The node map must agree with what the node communicator says, on every rank.
void test_topology(const hympi::Topology& topo) {
  const auto expected_layout = hympi::layout_from_env();
  check(topo.layout() == expected_layout, "topology layout follows the environment");
  std::vector<int> node_index_of(topo.size());
  int mine = topo.node_index();
  MPI_Allgather(&mine, 1, MPI_INT, node_index_of.data(), 1, MPI_INT, topo.comm());
  check(node_index_of == topo.map().node_of_rank, "node_of_rank agrees on all ranks");
  check(static_cast<int>(topo.node_ranks().size()) == topo.node_size(), "node size matches node_ranks");
  check(topo.node_ranks()[topo.node_rank()] == topo.rank(), "node rank maps back to comm rank");
  if (expected_layout.emulated()) {
    int world_size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const auto assigned = hympi::assign_emulated_nodes(world_size, expected_layout);
    for (int r = 0; r < topo.size(); ++r)
      for (int s = 0; s < topo.size(); ++s)
        check((assigned[r] == assigned[s]) == (topo.node_of(r) == topo.node_of(s)),
              "ranks " + std::to_string(r) + "," + std::to_string(s) + " share a node iff the layout says so");
  }
  int bridge_size = -1;
  if (topo.is_leader()) MPI_Comm_size(topo.bridge_comm(), &bridge_size);
  check(topo.is_leader() ? bridge_size == topo.num_nodes() : topo.bridge_comm() == MPI_COMM_NULL,
        "bridge has one leader per node");
  check(&hympi::Topology::of(topo.comm()) == &topo, "topology is cached");
  check(!topo.is_flat(), "a discovered topology is not flat");
}

// Topology::flat: every rank its own node, no communication; collectives on it
// (pure and hybrid) still give the right results.
void test_flat_topology(MPI_Comm comm) {
  const auto& flat = hympi::Topology::flat(comm);
  check(flat.is_flat() && &hympi::Topology::flat(comm) == &flat, "flat topology is cached");
  check(&hympi::Topology::of(comm) != &flat, "flat and discovered topologies are different objects");
  check(flat.node_size() == 1 && flat.node_rank() == 0 && flat.is_leader(), "flat: one rank per node");
  check(flat.node_comm() == MPI_COMM_SELF && flat.bridge_comm() == comm, "flat: node = self, bridge = comm");
  check(flat.num_nodes() == flat.size() && flat.node_index() == flat.rank(), "flat: node index = rank");
  for (std::int64_t count : {1, 4096}) test_bcast(flat, count);
  test_allgatherv(flat, std::vector<std::int64_t>(flat.size(), 5), "allgather on the flat topology");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size();
    test_topology(topo);
    test_flat_topology(MPI_COMM_WORLD);
    // Allgather: 0, 1, odd, and >= 1 MiB per rank.
    for (std::int64_t count : {0, 1, 7, 1000, 131072})
      test_allgatherv(topo, std::vector<std::int64_t>(p, count), "allgather count " + std::to_string(count));
    // Allgatherv: irregular counts, including zero contributions.
    test_allgatherv(topo, hympi::test::irregular_counts(p), "allgatherv irregular");
    std::vector<std::int64_t> one_big(p, 1);
    one_big[p - 1] = 150000;
    test_allgatherv(topo, one_big, "allgatherv one large");
    for (std::int64_t count : {1, 13, 4096, 131072}) test_bcast(topo, count);
    for (std::int64_t count : {0, 5, 20000, 131072}) test_bcast_overlap(topo, count);

    // Growth: the same object reused over growing and shrinking counts.
    for (const auto& v : kVariants) {
      auto coll = hympi::Allgatherv::create_allgather(topo, 1, sizeof(double), {v.policy, v.sync});
      int bad = 0;
      for (std::int64_t count : {1, 64, 3, 5000, 2}) {
        coll->set_counts(std::vector<std::int64_t>(p, count));
        for (int it = 0; it < 3; ++it) {
          for (std::int64_t i = 0; i < count; ++i) coll->slot_as<double>()[i] = value(topo.rank(), i, it);
          coll->run();
          for (int r = 0; r < p; ++r)
            for (std::int64_t i = 0; i < count; ++i)
              if (coll->result_as<double>()[r * count + i] != value(r, i, it)) ++bad;
        }
      }
      check(bad == 0, "set_counts reuse " + v.name());
    }
  }
  const int rc = hympi::test::finish("collectives_test");
  MPI_Finalize();
  return rc;
}
