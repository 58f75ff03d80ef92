// The idle function of flag node sync (hympi::set_idle_function): a rank whose
// node leader arrives late must call the installed function while it waits, and
// after set_idle_function(nullptr) it must not. Run over emulated node layouts.
#include <mpi.h>

#include <chrono>
#include <thread>

#include "hympi/node_sync.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"

namespace {

int g_calls = 0;
void count_idle() {
  ++g_calls;
}

// One full node sync in which the node leader arrives `delay` late.
void late_leader_sync(hympi::NodeSync& sync, const hympi::Topology& topo, std::chrono::milliseconds delay) {
  if (topo.is_leader()) std::this_thread::sleep_for(delay);
  sync.full();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    using hympi::test::check;
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    auto sync = hympi::NodeSync::create(hympi::SyncKind::flags, topo, nullptr);
    const bool waits = !topo.is_leader();  // only non-leaders wait for the late leader

    hympi::set_idle_function(&count_idle);
    late_leader_sync(*sync, topo, std::chrono::milliseconds(200));
    const int installed_calls = g_calls;
    check(!waits || installed_calls > 0, "a waiting rank called the installed idle function");

    hympi::set_idle_function(nullptr);
    late_leader_sync(*sync, topo, std::chrono::milliseconds(50));
    check(g_calls == installed_calls, "after set_idle_function(nullptr) the default (sched_yield) is used");
  }
  const int rc = hympi::test::finish("idle_test");
  MPI_Finalize();
  return rc;
}
