// Bad input gives an error naming the problem on every rank that matters, never
// a hang; the library keeps working afterwards.
#include <mpi.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hympi/hympi.h"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_error;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size(), rank = topo.rank();
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid}) {
      const hympi::CollectiveOptions opt{policy, hympi::SyncKind::flags};
      const std::string tag = std::string(" (") + to_string(policy) + ")";
      expect_error(
          "negative", [&] { hympi::Allgatherv::create(topo, std::vector<std::int64_t>(p, -1), 8, opt); },
          "negative count" + tag);
      expect_error(
          "one non-negative count per rank",
          [&] { hympi::Allgatherv::create(topo, std::vector<std::int64_t>(p + 1, 1), 8, opt); },
          "wrong number of counts" + tag);
      if (p > 1)
        expect_error(
            "differ", [&] { hympi::Allgatherv::create(topo, std::vector<std::int64_t>(p, rank == 0 ? 2 : 1), 8, opt); },
            "counts differ between ranks" + tag);
      expect_error(
          "element size", [&] { hympi::Allgatherv::create(topo, std::vector<std::int64_t>(p, 1), 0, opt); },
          "zero element size" + tag);
      auto bcast = hympi::Bcast::create(topo, 16, sizeof(double), opt);
      expect_error(
          "root " + std::to_string(p) + " is outside", [&] { bcast->run(p, 4); }, "root too large" + tag);
      expect_error(
          "root -1 is outside", [&] { bcast->run(-1, 4); }, "negative root" + tag);
      expect_error(
          "outside [0, capacity 16]", [&] { bcast->run(0, 17); }, "count above capacity" + tag);
      expect_error(
          "wait() without a start()", [&] { bcast->wait(); }, "wait without start" + tag);
      bcast->start(0, 1);
      expect_error(
          "(started, not completed)", [&] { bcast->start(0, 1); }, "two starts" + tag);
      expect_error(
          "(started, not completed)", [&] { bcast->run(0, 1); }, "run while in flight" + tag);
      bcast->wait();
      // Still usable after the errors.
      if (rank == p - 1) bcast->buffer_as<double>()[0] = 42.0;
      bcast->run(p - 1, 1);
      check(bcast->result_as<double>()[0] == 42.0, "bcast works after errors" + tag);
      // The one in-flight guard, the same words for every collective (a second start or a run refused).
      std::vector<std::pair<std::string, std::unique_ptr<hympi::PersistentCollective>>> ops;
      ops.emplace_back("allgather", hympi::Allgatherv::create_allgather(topo, 2, sizeof(double), opt));
      ops.emplace_back("allreduce", hympi::Allreduce::create(topo, 2, MPI_DOUBLE, MPI_SUM, opt));
      ops.emplace_back("reduce", hympi::Reduce::create(topo, 2, MPI_DOUBLE, MPI_SUM, 0, opt));
      ops.emplace_back("fixed bcast", hympi::Bcast::create_fixed(topo, 0, 2, sizeof(double), opt));
      for (auto& [name, op] : ops) {
        if (op->slot()) op->slot_as<double>()[0] = op->slot_as<double>()[1] = 1.0;
        op->start();
        expect_error("(started, not completed)", [&] { op->start(); }, name + " two starts" + tag);
        expect_error("(started, not completed)", [&] { op->run(); }, name + " run while in flight" + tag);
        op->wait();
        op->run();  // still usable
      }
    }
    // A window larger than /dev/shm: refused before allocation, on every rank.
    expect_error(
        "does not fit", [&] { hympi::NodeBuffer(topo, std::size_t{1} << 52); }, "window too large");
    expect_error(
        "does not fit",
        [&] {
          hympi::Allgatherv::create_allgather(topo, std::int64_t{1} << 48, 8,
                                              {hympi::Policy::hybrid, hympi::SyncKind::barrier});
        },
        "allgather too large for /dev/shm");
    // Grids that do not match the communicator.
    expect_error(
        "needs " + std::to_string(p + 1) + " ranks", [&] { hympi::Grid2D(MPI_COMM_WORLD, p + 1, 1); },
        "grid too large");
    expect_error(
        "must have P, Q >= 1", [&] { hympi::Grid2D(MPI_COMM_WORLD, 0, p); }, "zero grid");
    expect_error(
        "must divide the grid",
        [&] {
          hympi::TwoLevelGrid(MPI_COMM_WORLD, {1, p, 1, p + 1, hympi::GridOrder::row_major, false});
        },
        "groups do not divide");
    // Layouts that do not add up.
    hympi::LayoutSpec bad_layout;
    bad_layout.node_sizes = {p + 1};
    expect_error(
        "add up to", [&] { hympi::Topology::of(MPI_COMM_WORLD, bad_layout); }, "layout sizes");
    expect_error(
        "placement must be", [] { hympi::parse_placement("diagonal"); }, "placement text");

    // The C API reports codes and messages.
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "sync", "spin");
    hympi_request_t h = nullptr;
    check(hympi_bcast_init(8, MPI_DOUBLE, 0, MPI_COMM_WORLD, info, &h) == HYMPI_ERR_ARG, "C API: bad sync code");
    check(std::string(hympi_last_error()).find("'sync' has value 'spin'") != std::string::npos, "C API: sync message");
    MPI_Info_set(info, "sync", "flags");
    check(hympi_bcast_init(8, MPI_DOUBLE, 0, MPI_COMM_WORLD, info, &h) == HYMPI_SUCCESS, "C API: init");
    MPI_Info_free(&info);
    check(hympi_request_free(&h) == HYMPI_SUCCESS && h == nullptr, "C API: free");
    check(hympi_bcast_init(1, MPI_DOUBLE, p + 3, MPI_COMM_WORLD, MPI_INFO_NULL, &h) == HYMPI_ERR_ARG && h == nullptr,
          "C API: bad root code");
    check(std::string(hympi_last_error()).find("is not a rank") != std::string::npos, "C API: bad root message");
    check(hympi_allgatherv_init(nullptr, MPI_DOUBLE, MPI_COMM_WORLD, MPI_INFO_NULL, nullptr) == HYMPI_ERR_ARG,
          "C API: null request");
  }
  const int rc = hympi::test::finish("errors_test");
  MPI_Finalize();
  return rc;
}
