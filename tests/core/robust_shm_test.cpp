// Run by robust_shm.sh inside a private mount namespace whose /dev/shm is a
// 64 MiB tmpfs (Docker's default). Windows that each fit alone but not together
// (several emulated nodes on this host, several windows on one node) must give
// a clear hympi::Error on every rank, never a SIGBUS at the first store; a failed
// growth leaves the object as it was; the process stays usable.
#include <mpi.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_error;

namespace {

// Free bytes of the shared file system, the same number on every rank.
std::size_t free_bytes() {
  long long mine = hympi::shared_memory_available();
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  return mine > 0 ? static_cast<std::size_t>(mine) : 0;
}

void check_usable(const hympi::Topology& topo, hympi::CollectiveOptions opt, const std::string& what) {
  auto bc = hympi::Bcast::create(topo, 1 << 16, 1, opt);
  const int root = topo.size() - 1;
  if (topo.rank() == root) std::memset(bc->buffer(), 9, 1 << 16);
  bc->run(root, 1 << 16);
  const auto* r = bc->result_as<unsigned char>();
  check(r[0] == 9 && r[(1 << 16) - 1] == 9, "usable after " + what);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int nodes = topo.num_nodes(), p = topo.size();
    const std::size_t room = free_bytes();  // before any window of ours
    for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier}) {
      const hympi::CollectiveOptions opt{hympi::Policy::hybrid, sync};
      const std::string tag = std::string(" (") + to_string(sync) + ")";
      // Windows freed by the previous round give their pages back as the last rank
      // unmaps them: wait for that (up to 10 s) so every round sees the same room.
      for (int i = 0; i < 100 && free_bytes() + (2u << 20) < room; ++i) usleep(100000);
      if (topo.rank() == 0)
        std::printf("robust_shm (%s): %zu MiB free in %s\n", to_string(sync), room >> 20,
                    hympi::shared_memory_directory().c_str());
      check(room > (16u << 20) && room <= (64u << 20), "the test runs with a 64 MiB /dev/shm (" + std::to_string(room) +
                                                           " bytes free in " + hympi::shared_memory_directory() + ")");
      // The case: each node's window (2 slots) takes 70% of the room, so it
      // passes the free-space check alone; together the nodes overflow it.
      if (nodes > 1) {
        const auto capacity = static_cast<std::int64_t>(room * 7 / 10 / 2);
        expect_error(
            "does not fit", [&] { hympi::Bcast::create(topo, capacity, 1, opt); },
            "nodes overflow /dev/shm together" + tag);
        check_usable(topo, opt, "nodes overflowing /dev/shm" + tag);
      }
      // Several windows on every node: each takes a quarter of the room on this
      // host; three fit (with room left for the MPI's own segments), the fourth not.
      {
        std::vector<std::unique_ptr<hympi::Bcast>> windows;
        const auto capacity = static_cast<std::int64_t>(room / 4 / nodes / 2);
        std::string message;
        try {
          for (int i = 0; i < 4; ++i) {
            windows.push_back(hympi::Bcast::create(topo, capacity, 1, opt));
            std::memset(windows.back()->buffer(), 1, static_cast<std::size_t>(capacity));  // a store: no SIGBUS
          }
        } catch (const hympi::Error& e) {
          message = e.what();
        }
        // A node of one rank may get private memory (Open MPI does), so the count
        // is exact only when every node shares its window; hympi counts them all.
        bool all_shared = true;
        for (const auto& ranks : topo.map().ranks_of_node) all_shared = all_shared && ranks.size() > 1;
        if (all_shared)
          check(windows.size() == 3 && message.find("does not fit") != std::string::npos,
                "the fourth window is refused: got " + std::to_string(windows.size()) + " windows, '" + message + "'" +
                    tag);
        else
          check(windows.size() >= 3 && (windows.size() == 4 || message.find("does not fit") != std::string::npos),
                "three windows fit, a fourth fits or is refused cleanly: '" + message + "'" + tag);
        windows.clear();
        check_usable(topo, opt, "several windows" + tag);
      }
      // Growth: from 35% of the room (per node) to 40%. Doubling plus the old
      // window does not fit, the request itself does; far beyond fails cleanly.
      {
        auto count_for = [&](double share) {
          return static_cast<std::int64_t>(room * share / nodes / 2 / sizeof(double) / p);
        };
        auto ag = hympi::Allgatherv::create_allgather(topo, count_for(0.35), sizeof(double), opt);
        std::vector<std::int64_t> grown(p, count_for(0.40));
        ag->set_counts(grown);
        check(ag->counts() == grown, "growth takes the exact request when doubling does not fit" + tag);
        const void* slot = ag->slot();
        expect_error(
            "does not fit", [&] { ag->set_counts(std::vector<std::int64_t>(p, count_for(1.2))); },
            "growth beyond /dev/shm" + tag);
        check(ag->slot() == slot && ag->counts() == grown, "failed growth left the object as it was" + tag);
        const std::int64_t n = grown[0];
        for (std::int64_t k = 0; k < n; k += 4096) ag->slot_as<double>()[k] = topo.rank() + 1.0;
        ag->run();
        bool ok = true;
        for (int r = 0; r < p; ++r) ok = ok && ag->result_as<double>()[r * n] == r + 1.0;
        check(ok, "object works after the failed growth" + tag);
      }
    }
  }
  const int rc = hympi::test::finish("robust_shm");
  MPI_Finalize();
  return rc;
}
