// The C++ face of the persistent model: Allgatherv, Bcast and Allreduce objects
// driven by start()/test()/wait() with typed slot_as/result_as, data changing
// every round, ranks arriving late (jitter between start and completion), the
// application's own ring of point-to-point messages in flight between start and
// completion, checked against MPI_Allgatherv / MPI_Bcast / MPI_Allreduce.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

constexpr int kRounds = 6;

// Completes by polling test() on odd rounds, wait() on even ones.
template <class Collective>
void complete(Collective& c, int round) {
  if (round % 2 == 0) return c.wait();
  // A time bound, not a poll count: oversubscribed ranks can be descheduled for
  // long stretches; a hang still fails here (and under ctest's timeout).
  const double give_up = MPI_Wtime() + 30.0;
  bool done = false;
  while (!(done = c.test()) && MPI_Wtime() < give_up) {
  }
  check(done, "test() completes within 30 s");
}

// Neighbour exchange posted before start() and completed after the collective.
struct Ring {
  int to, from, sent, got = -1;
  MPI_Request requests[2];
  Ring(int rank, int size, int round)
      : to((rank + 1) % size), from((rank + size - 1) % size), sent(rank * 100 + round) {
    MPI_Irecv(&got, 1, MPI_INT, from, 7, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&sent, 1, MPI_INT, to, 7, MPI_COMM_WORLD, &requests[1]);
  }
  void finish(int round) {
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    check(got == from * 100 + round, "application's ring message");
  }
};

void allgatherv_rounds(const hympi::Topology& topo, hympi::CollectiveOptions options) {
  const int rank = topo.rank(), size = topo.size();
  std::vector<std::int64_t> counts(size);
  std::vector<int> icounts(size), displs(size);
  for (int r = 0, at = 0; r < size; ++r) {
    counts[r] = icounts[r] = (r % 3) + 1;
    displs[r] = at;
    at += icounts[r];
  }
  auto ag = hympi::Allgatherv::create(topo, counts, sizeof(float), options);
  std::vector<float> expected(static_cast<std::size_t>(displs.back() + icounts.back()));
  for (int round = 0; round < kRounds; ++round) {
    float* mine = ag->slot_as<float>();
    std::vector<float> own(static_cast<std::size_t>(icounts[rank]));
    for (int i = 0; i < icounts[rank]; ++i) own[i] = mine[i] = static_cast<float>(rank * 10 + i) + 0.5f * round;
    Ring ring(rank, size, round);
    ag->start();
    MPI_Allgatherv(own.data(), icounts[rank], MPI_FLOAT, expected.data(), icounts.data(), displs.data(), MPI_FLOAT,
                   MPI_COMM_WORLD);
    complete(*ag, round);
    ring.finish(round);
    const float* got = ag->result_as<float>();
    bool same = true;
    for (std::size_t i = 0; i < expected.size(); ++i) same = same && got[i] == expected[i];
    check(same, std::string("allgatherv start/test/wait round ") + std::to_string(round));
  }
}

void bcast_rounds(const hympi::Topology& topo, hympi::CollectiveOptions options) {
  const int rank = topo.rank(), size = topo.size();
  auto bc = hympi::Bcast::create(topo, 4, sizeof(std::int64_t), options);
  for (int round = 0; round < kRounds; ++round) {
    const int root = round % size;
    if (rank == root)
      for (int i = 0; i < 4; ++i) bc->buffer_as<std::int64_t>()[i] = std::int64_t{root} << 33 | (round * 4 + i);
    Ring ring(rank, size, round);
    bc->start(root, 4);
    complete(*bc, round);
    ring.finish(round);
    const std::int64_t* got = bc->result_as<std::int64_t>();
    for (int i = 0; i < 4; ++i)
      check(got[i] == (std::int64_t{root} << 33 | (round * 4 + i)),
            "bcast start/test/wait round " + std::to_string(round));
  }
}

// Some ranks reach completion late, so a node's ranks arrive at different times
// and the early ones' test() calls find the node's steps half done.
void jitter(int rank, int round) {
  std::this_thread::sleep_for(std::chrono::microseconds(((rank + round) % 3) * 300));
}

// Exact int64 sums (bit-exact against MPI_Allreduce) and double max, with one
// leader and with two, so the nonblocking path crosses one and several bridges;
// both in flight at once.
void allreduce_rounds(const hympi::Topology& topo, hympi::CollectiveOptions options) {
  const int rank = topo.rank();
  constexpr int kCount = 1001;
  for (int leaders : {1, 2}) {
    options.leaders = leaders;
    auto sum = hympi::Allreduce::create(topo, kCount, MPI_INT64_T, MPI_SUM, options);
    auto max = hympi::Allreduce::create(topo, kCount, MPI_DOUBLE, MPI_MAX, options);
    std::vector<std::int64_t> own(kCount), expected(kCount);
    std::vector<double> own_d(kCount), expected_d(kCount);
    for (int round = 0; round < kRounds; ++round) {
      for (int i = 0; i < kCount; ++i) {
        own[i] = sum->slot_as<std::int64_t>()[i] = (std::int64_t{rank + 1} << 35) + i * 7 + round;
        own_d[i] = max->slot_as<double>()[i] = ((rank * 31 + i * 17 + round) % 101) * 0.25;
      }
      Ring ring(rank, topo.size(), round);
      sum->start();
      max->start();
      MPI_Allreduce(own.data(), expected.data(), kCount, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(own_d.data(), expected_d.data(), kCount, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      jitter(rank, round);
      // Two reductions in flight, completed in either order: each node posts its
      // bridge work when it gets there, so the objects must not share communicators.
      if (round % 2 == 0) {
        complete(*sum, round);
        complete(*max, round + 1);
      } else {
        complete(*max, round);
        complete(*sum, round + 1);
      }
      ring.finish(round);
      bool same = true;
      for (int i = 0; i < kCount; ++i)
        same = same && sum->result_as<std::int64_t>()[i] == expected[i] && max->result_as<double>()[i] == expected_d[i];
      check(same, "allreduce start/test/wait, leaders " + std::to_string(leaders) + ", round " + std::to_string(round));
    }
    // One reduction in flight at a time: a second start() or a run() is refused, then it still completes.
    sum->start();
    bool refused = false;
    try {
      sum->run();
    } catch (const hympi::Error&) {
      refused = true;
    }
    check(refused, "allreduce run() while start() is in flight is refused");
    sum->wait();
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier}) {
        hympi::CollectiveOptions options;
        options.policy = policy;
        options.sync = sync;
        allgatherv_rounds(topo, options);
        bcast_rounds(topo, options);
        allreduce_rounds(topo, options);
      }
  }
  const int rc = hympi::test::finish("cpp_nonblocking");
  MPI_Finalize();
  return rc;
}
