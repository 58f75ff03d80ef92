// C++ consumer: a hybrid allgather checked against the plain expectation, and
// the library version against the one the build system found (argv[1]).
#include <cstdio>
#include <hympi/hympi.hpp>
#include <string>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int bad = 0;
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    auto ag =
        hympi::Allgatherv::create_allgather(topo, 1, sizeof(int), {hympi::Policy::hybrid, hympi::SyncKind::flags});
    *ag->slot_as<int>() = topo.rank() * 3;
    ag->run();
    for (int r = 0; r < topo.size(); ++r) bad += ag->result_as<int>()[r] != r * 3;
  }
  if (argc < 2 || hympi::library_version() != argv[1]) {
    std::printf("consumer_cxx: version %s, expected %s\n", hympi::library_version().c_str(), argc < 2 ? "?" : argv[1]);
    bad += 1;
  }
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("consumer_cxx: %s\n", total ? "FAILED" : "ok");
  MPI_Finalize();
  return total != 0;
}
