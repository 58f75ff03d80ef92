// CollectiveOptions::progress_thread: a rank busy computing, with no MPI call at
// all, holds nobody back. Rank 0 (node 0's leader, owner of bridge slice 0) starts
// each collective and then sleeps; every other rank completes it by polling
// test() and then checks that rank 0's "awake" message, sent when it wakes, has
// not arrived yet: the node's part and rank 0's slice moved without rank 0's own
// thread. Allgather, bcast and allreduce, leaders 1 and 2, both node syncs,
// results checked against MPI. With `single` as argument MPI gives
// MPI_THREAD_FUNNELED, and asking for a progress thread must fail on every rank.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstring>
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

constexpr int kAwakeTag = 99;
constexpr auto kBusy = std::chrono::milliseconds(250);

// Rank 0 sleeps, then tells everyone and completes; the others complete by
// polling and report whether rank 0 was still asleep at that moment.
template <class Collective>
void complete_around_a_sleeper(const hympi::Topology& topo, Collective& c, const std::string& what) {
  const int rank = topo.rank(), size = topo.size();
  if (rank == 0) {
    std::this_thread::sleep_for(kBusy);
    int awake = 1;
    for (int r = 1; r < size; ++r) MPI_Send(&awake, 1, MPI_INT, r, kAwakeTag, MPI_COMM_WORLD);
    c.wait();
    return;
  }
  const double give_up = MPI_Wtime() + 30.0;
  bool done = false;
  while (!(done = c.test()) && MPI_Wtime() < give_up) {
  }
  check(done, what + ": test() completes within 30 s");
  int awake_arrived = 0;
  MPI_Iprobe(0, kAwakeTag, MPI_COMM_WORLD, &awake_arrived, MPI_STATUS_IGNORE);
  check(!awake_arrived, what + ": completed while rank 0 was busy");
  int awake = 0;
  MPI_Recv(&awake, 1, MPI_INT, 0, kAwakeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

double value(int rank, int i, int round) {
  return rank * 1000.0 + i + 0.25 * round;
}

void allgather_case(const hympi::Topology& topo, const hympi::CollectiveOptions& options, const std::string& label) {
  constexpr int kCount = 300;
  auto ag = hympi::Allgatherv::create_allgather(topo, kCount, sizeof(double), options);
  std::vector<double> own(kCount), expected(static_cast<std::size_t>(kCount) * topo.size());
  const int round = 1;
  for (int i = 0; i < kCount; ++i) own[i] = ag->slot_as<double>()[i] = value(topo.rank(), i, round);
  ag->start();
  complete_around_a_sleeper(topo, *ag, "allgather " + label);
  MPI_Allgather(own.data(), kCount, MPI_DOUBLE, expected.data(), kCount, MPI_DOUBLE, MPI_COMM_WORLD);
  check(std::memcmp(ag->result(), expected.data(), expected.size() * sizeof(double)) == 0,
        "allgather " + label + " result");
}

void bcast_case(const hympi::Topology& topo, const hympi::CollectiveOptions& options, const std::string& label) {
  constexpr int kCount = 500;
  auto bc = hympi::Bcast::create(topo, kCount, sizeof(double), options);
  const int root = topo.size() - 1;  // not the sleeper: its data must travel anyway
  std::vector<double> expected(kCount);
  const int round = 1;
  for (int i = 0; i < kCount; ++i) expected[i] = value(root, i, round);
  if (topo.rank() == root) std::memcpy(bc->buffer(), expected.data(), sizeof(double) * kCount);
  bc->start(root, kCount);
  complete_around_a_sleeper(topo, *bc, "bcast " + label);
  check(std::memcmp(bc->result(), expected.data(), sizeof(double) * kCount) == 0, "bcast " + label + " result");
}

void allreduce_case(const hympi::Topology& topo, const hympi::CollectiveOptions& options, const std::string& label) {
  constexpr int kCount = 777;
  auto ar = hympi::Allreduce::create(topo, kCount, MPI_INT64_T, MPI_SUM, options);
  std::vector<std::int64_t> own(kCount), expected(kCount);
  const int round = 1;
  for (int i = 0; i < kCount; ++i)
    own[i] = ar->slot_as<std::int64_t>()[i] = (std::int64_t{topo.rank() + 1} << 34) + i * 3 + round;
  ar->start();
  complete_around_a_sleeper(topo, *ar, "allreduce " + label);
  MPI_Allreduce(own.data(), expected.data(), kCount, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  check(std::memcmp(ar->result(), expected.data(), sizeof(std::int64_t) * kCount) == 0,
        "allreduce " + label + " result");
}

// Every create refuses `options` with the same error on every rank (`what`: the
// case), and the library stays usable afterwards with `usable`.
void every_create_refuses(const hympi::Topology& topo, const hympi::CollectiveOptions& options,
                          const std::string& needle, const std::string& what, const hympi::CollectiveOptions& usable) {
  hympi::test::expect_same_error(
      needle, [&] { hympi::Allgatherv::create_allgather(topo, 4, 8, options); }, "allgather " + what);
  hympi::test::expect_same_error(
      needle, [&] { hympi::Bcast::create(topo, 4, 8, options); }, "bcast " + what);
  hympi::test::expect_same_error(
      needle, [&] { hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_SUM, options); }, "allreduce " + what);
  auto ag = hympi::Allgatherv::create_allgather(topo, 1, sizeof(int), usable);
  *ag->slot_as<int>() = topo.rank();
  ag->run();
  check(ag->result_as<int>()[topo.size() - 1] == topo.size() - 1, "allgather after the " + what + " option");
}

// Without MPI_THREAD_MULTIPLE the option is refused at creation, on every rank.
void refused(const hympi::Topology& topo) {
  hympi::CollectiveOptions options, usable;
  options.progress_thread = true;
  every_create_refuses(topo, options, "progress_thread needs MPI_THREAD_MULTIPLE", "refused", usable);
}

// The option asked for on one rank only: the same error on every rank (agreed
// before anyone refuses), the library usable afterwards.
void differing(const hympi::Topology& topo) {
  hympi::CollectiveOptions options, usable;
  options.progress_thread = topo.rank() == topo.size() - 1;
  usable.progress_thread = true;
  every_create_refuses(topo, options, "progress_thread differs between ranks", "differing", usable);
}

}  // namespace

int main(int argc, char** argv) {
  const bool single = argc > 1 && std::string(argv[1]) == "single";
  int provided = 0;
  MPI_Init_thread(&argc, &argv, single ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE, &provided);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    if (single) {
      check(provided < MPI_THREAD_MULTIPLE, "MPI gave less than MPI_THREAD_MULTIPLE when asked for FUNNELED");
      if (provided < MPI_THREAD_MULTIPLE) refused(topo);
    } else {
      check(provided == MPI_THREAD_MULTIPLE, "MPI provides MPI_THREAD_MULTIPLE");
      if (topo.size() > 1) differing(topo);
      for (int leaders : {1, 2})
        for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier}) {
          hympi::CollectiveOptions options;
          options.sync = sync;
          options.leaders = leaders;
          options.progress_thread = true;
          const std::string label = std::string(hympi::to_string(sync)) + " leaders=" + std::to_string(leaders);
          allgather_case(topo, options, label);
          bcast_case(topo, options, label);
          allreduce_case(topo, options, label);
        }
    }
  }
  const int rc = hympi::test::finish(single ? "progress_thread_test single" : "progress_thread_test");
  MPI_Finalize();
  return rc;
}
