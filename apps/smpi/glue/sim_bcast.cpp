// The simulated MPI layer's MPI_Bcast (a PMPI wrapper, entered through sim_entry_points.cpp
// or a preload): HYMPI_SIM_BCAST=mpich|dcmf runs the layer's own algorithms, made of
// charged messages (sim_bcast_algorithms.hpp); unset or smpi calls SMPI's (PMPI_Bcast,
// its smpi/bcast algorithm). HYMPI_SIM_BCAST_LOG=1: each broadcast's root prints the pick
// (tests read it).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sim_bcast_algorithms.hpp"
#include "sim_levels.hpp"
#include "sim_settings.hpp"

namespace hympi_sim {

long long message_bytes(int count, MPI_Datatype type) {
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  return static_cast<long long>(type_size) * count;
}

const char* mpich_choice(long long bytes, int ranks) {
  if (bytes < 12288 || ranks < 8) return "binomial";
  if (bytes < 524288 && (ranks & (ranks - 1)) == 0) return "scatter_rdb";
  return "scatter_ring";
}

namespace {
void log_pick(const char* rule, const char* pick, long long bytes, int ranks, int root, MPI_Comm comm) {
  static const bool on = [] {
    const char* v = std::getenv("HYMPI_SIM_BCAST_LOG");
    return v && *v == '1';
  }();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (on && rank == root) std::fprintf(stderr, "hympi sim bcast: %s %s bytes=%lld ranks=%d\n", rule, pick, bytes, ranks);
}
}  // namespace

int bcast_mpich(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  const long long bytes = message_bytes(count, type);
  const char* pick = mpich_choice(bytes, ranks);
  log_pick("mpich", pick, bytes, ranks, root, comm);
  if (std::strcmp(pick, "binomial") == 0) return bcast_binomial(buf, count, type, root, comm);
  if (std::strcmp(pick, "scatter_rdb") == 0) return bcast_scatter_rdb(buf, count, type, root, comm);
  return bcast_scatter_ring(buf, count, type, root, comm);
}

// Until BG/P's rule exists (dcmf_bcast.cpp defines the strong symbol), dcmf means mpich, said once.
__attribute__((weak)) int bcast_dcmf(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  static bool said = false;
  if (!said) {
    std::fprintf(stderr, "hympi sim layer: HYMPI_SIM_BCAST=dcmf is not built in (no dcmf_bcast.cpp): using mpich\n");
    said = true;
  }
  return bcast_mpich(buf, count, type, root, comm);
}

}  // namespace hympi_sim

extern "C" int hympi_sim_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const hympi_sim::Bcast rule = hympi_sim::settings().bcast;
  int inter = 0, ranks = 1;
  if (comm != MPI_COMM_NULL) {
    MPI_Comm_test_inter(comm, &inter);
    MPI_Comm_size(comm, &ranks);
  }
  if (rule == hympi_sim::Bcast::smpi || comm == MPI_COMM_NULL || inter || ranks == 1 || count == 0) {
    int rc = MPI_SUCCESS;  // SMPI's: its smpi/bcast setting, or the algorithm named for this level
    if (rule == hympi_sim::Bcast::smpi && ranks > 1 && count > 0 && hympi_sim::level_bcast(buf, count, type, root, comm, &rc))
      return rc;
    return PMPI_Bcast(buf, count, type, root, comm);
  }
  if (root < 0 || root >= ranks) return PMPI_Bcast(buf, count, type, root, comm);  // SMPI's error for a bad root
  if (rule == hympi_sim::Bcast::dcmf) return hympi_sim::bcast_dcmf(buf, count, type, root, comm);
  return hympi_sim::bcast_mpich(buf, count, type, root, comm);
}

// For a preloaded layer (an unprivatized program, sim_entry_points.cpp says why).
extern "C" int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return hympi_sim_bcast(buf, count, type, root, comm);
}
