// Out of memory on the root alone (issue 50 review): a gather's or scatter's root holds
// size x count elements, every other rank count. The root is given an address-space
// limit with room for a part but not for the whole; every rank must then get the same
// out-of-memory error (none left with a request the root never starts: a hang), and a
// gather must work after it. Pure policy, flat and grouped (G = 2: the root's packed
// copy too). Not under the sanitizers (they reserve address space of their own).
#include <mpi.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

namespace {

using hympi::test::check;

std::size_t vm_size_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  std::size_t kib = 0;
  while (status >> key)
    if (key == "VmSize:") return (status >> kib, kib * 1024);
  return 0;
}

void refuse_on_every_rank(const hympi::Topology& topo, bool gather, int groups, double parts_of_room) {
  const std::int64_t count = std::int64_t{1} << 23;  // 8 Mi elements of 8 bytes: 64 MiB a part
  const std::size_t part = static_cast<std::size_t>(count) * 8;
  hympi::CollectiveOptions o;
  o.policy = hympi::Policy::pure;
  o.groups = groups;
  const std::string what = std::string(gather ? "gather" : "scatter") + " groups=" + std::to_string(groups);
  rlimit old{};
  getrlimit(RLIMIT_AS, &old);
  if (topo.rank() == 0) {
    const rlimit tight{static_cast<rlim_t>(vm_size_bytes() + static_cast<std::size_t>(parts_of_room * part)),
                       old.rlim_max};
    setrlimit(RLIMIT_AS, &tight);
  }
  hympi::test::expect_same_error(
      "out of memory",
      [&] { (gather ? &hympi::Gather::create : &hympi::Scatter::create)(topo, 0, count, 8, o); }, what);
  if (topo.rank() == 0) setrlimit(RLIMIT_AS, &old);
  // Usable after: a small gather of every rank's number.
  auto small = hympi::Gather::create(topo, 0, 1, sizeof(int), o);
  *static_cast<int*>(small->slot()) = topo.rank();
  small->run();
  if (topo.rank() == 0)
    for (int r = 0; r < topo.size(); ++r)
      check(static_cast<const int*>(small->result())[r] == r, what + ": the gather after the error is wrong");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const hympi::Topology& topo = hympi::Topology::of(MPI_COMM_WORLD);
    // Room for the root's part and a half, not for its whole buffer (size >= 2 parts).
    refuse_on_every_rank(topo, true, 1, 1.5);
    refuse_on_every_rank(topo, false, 1, 1.5);
    if (topo.size() >= 3) refuse_on_every_rank(topo, true, 2, 1.5);
  }
  const int rc = hympi::test::finish("robust_root_memory_test");
  MPI_Finalize();
  return rc;
}
