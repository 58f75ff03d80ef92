// MPI test of hympi::NodeSharedArray on whatever layout the test runs with
// (HYMPI_* environment): filled by the leader or cooperatively, read by every rank
// and compared with the plain reference pattern; one writer per node under hybrid
// (the others read bytes they never wrote: the copy is shared), a private copy per
// rank under pure; bytes per node; a second fill (new generation); a loader that
// throws on one node and sizes that differ within a node give the same error on
// every rank. With --small-shm (run by robust_shm.sh, /dev/shm of 64 MiB) a hybrid
// array larger than /dev/shm is a clear out_of_memory error on every rank while the
// pure one (private memory) works.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_error;

namespace {

std::uint8_t pattern(std::size_t i, int generation) {
  return static_cast<std::uint8_t>((i * 131 + (i >> 9) + 7 * static_cast<std::size_t>(generation)) & 0xff);
}

bool matches(const hympi::NodeSharedArray& a, int generation) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (static_cast<std::uint8_t>(a.data()[i]) != pattern(i, generation)) return false;
  return true;
}

long long node_sum(const hympi::Topology& topo, long long mine) {
  long long sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, topo.node_comm());
  return sum;
}

void check_fills(const hympi::Topology& topo, hympi::Policy policy, hympi::SyncKind sync, std::size_t bytes) {
  const std::string tag =
      std::string(" (") + to_string(policy) + ", " + to_string(sync) + ", " + std::to_string(bytes) + " bytes)";
  const bool hybrid = policy == hympi::Policy::hybrid;
  hympi::NodeSharedArray a(topo, bytes, policy, sync);
  check(a.size() == bytes && a.shared() == hybrid, "size and policy" + tag);
  check(a.bytes_per_node() == (hybrid ? bytes : bytes * static_cast<std::size_t>(topo.node_size())),
        "bytes per node" + tag);

  // By the leader: one loader call per node (hybrid) or per rank (pure).
  int loads = 0;
  a.fill_by_leader([&](std::byte* data, std::size_t n) {
    ++loads;
    for (std::size_t i = 0; i < n; ++i) data[i] = std::byte{pattern(i, 0)};
  });
  check(node_sum(topo, loads) == (hybrid ? 1 : topo.node_size()), "one loader per node under hybrid" + tag);
  check(loads == (a.writer() ? 1 : 0), "the loader runs where writer() says" + tag);
  check(matches(a, 0), "every rank reads what the leader loaded" + tag);

  // Cooperatively, a new generation: the ranges cover every byte exactly once per copy.
  long long written = 0;
  a.fill_cooperatively(
      [&](std::byte* data, std::size_t begin, std::size_t end) {
        check(begin % 8 == 0 && begin < end && end <= bytes, "a range on the granule" + tag);
        written += static_cast<long long>(end - begin);
        for (std::size_t i = begin; i < end; ++i) data[i] = std::byte{pattern(i, 1)};
      },
      8);
  check(node_sum(topo, written) == static_cast<long long>(hybrid ? bytes : bytes * topo.node_size()),
        "cooperative ranges cover the array once per copy" + tag);
  check(matches(a, 1), "every rank reads the cooperative fill" + tag);

  // Shared vs private: every rank stores its node rank at byte 0 in turn order;
  // under hybrid the last writer wins for all, under pure each keeps its own.
  if (bytes > 0) {
    MPI_Barrier(topo.node_comm());  // everyone has read the fill before it is overwritten
    for (int turn = 0; turn < topo.node_size(); ++turn) {
      if (turn == topo.node_rank()) a.mutable_data()[0] = std::byte{static_cast<std::uint8_t>(turn)};
      a.publish();
      if (!hybrid) MPI_Barrier(topo.node_comm());  // pure publish() is local: order the turns
    }
    const int expected = hybrid ? topo.node_size() - 1 : topo.node_rank();
    check(static_cast<int>(a.data()[0]) == expected, "byte 0 is shared under hybrid, private under pure" + tag);
  }
}

void check_errors(const hympi::Topology& topo, hympi::Policy policy) {
  const std::string tag = std::string(" (") + to_string(policy) + ")";
  hympi::NodeSharedArray a(topo, 4096, policy);
  const int last_node = topo.num_nodes() - 1;
  expect_error(
      "cannot read the input of node",
      [&] {
        a.fill_by_leader([&](std::byte*, std::size_t) {
          if (topo.node_index() == last_node)
            throw hympi::Error(hympi::ErrorCode::invalid_argument,
                               "cannot read the input of node " + std::to_string(last_node));
        });
      },
      "a loader error on one node reaches every rank" + tag);
  expect_error(
      "fill_cooperatively failed here",
      [&] {
        a.fill_cooperatively([&](std::byte*, std::size_t, std::size_t) {
          if (topo.rank() == topo.size() - 1) throw std::runtime_error("fill_cooperatively failed here");
        });
      },
      "a cooperative fill error reaches every rank" + tag);
  // Sizes that differ within a node (only where some node has two ranks: the same
  // verdict on every rank).
  if (topo.size() > topo.num_nodes()) {
    const std::size_t bytes = topo.node_rank() == 1 ? 100 : 64;
    expect_error(
        "different sizes", [&] { hympi::NodeSharedArray bad(topo, bytes, policy); },
        "sizes that differ within a node" + tag);
  }
  // The object is still usable.
  a.fill_by_leader([](std::byte* data, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) data[i] = std::byte{pattern(i, 2)};
  });
  check(matches(a, 2), "usable after the errors" + tag);
}

void check_small_shm(const hympi::Topology& topo) {
  const std::size_t too_big = std::size_t{80} << 20;  // more than the 64 MiB tmpfs
  expect_error(
      "does not fit in", [&] { hympi::NodeSharedArray a(topo, too_big, hympi::Policy::hybrid); },
      "a hybrid array larger than /dev/shm");
  hympi::NodeSharedArray a(topo, too_big, hympi::Policy::pure);  // private memory: no /dev/shm
  a.fill_by_leader([](std::byte* data, std::size_t n) { std::memset(data, 5, n); });
  check(a.data()[too_big - 1] == std::byte{5}, "a pure array of the same size works");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    if (argc > 1 && std::string(argv[1]) == "--small-shm") {
      check_small_shm(topo);
    } else {
      for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
        for (auto sync : {hympi::SyncKind::barrier, hympi::SyncKind::flags})
          for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{1000003}})
            check_fills(topo, policy, sync, bytes);
      check_errors(topo, hympi::Policy::pure);
      check_errors(topo, hympi::Policy::hybrid);
    }
  }
  const int rc = hympi::test::finish("node_shared_array_test");
  MPI_Finalize();
  return rc;
}
