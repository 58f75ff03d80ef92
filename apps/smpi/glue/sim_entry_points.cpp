// The simulated MPI layer's entry points inside each SMPI program (SMPI builds only). The
// layer itself is a shared library (libhympi_sim_layer, one copy for every rank), but
// smpicxx links SimGrid first, so SimGrid's MPI_* would win for the library's definitions.
// A privatized program is loaded with RTLD_DEEPBIND, so these definitions in the program
// itself win and forward to the layer. An unprivatized program is loaded without it and
// resolves MPI_* in the global scope: there the run scripts preload the layer
// (sim_layer_preload in apps/smpi/run-common.sh), whose own MPI_* come before SimGrid's.
#include <mpi.h>

extern "C" {
int hympi_sim_init(int* argc, char*** argv);
int hympi_sim_init_thread(int* argc, char*** argv, int required, int* provided);
int hympi_sim_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
// One group per member list (sim_groups.cpp).
int hympi_sim_group_incl(MPI_Group group, int n, const int* ranks, MPI_Group* out);
int hympi_sim_group_free(MPI_Group* group);
// Per-level algorithms (sim_levels.cpp): SMPI's own collective unless the run names one.
int hympi_sim_reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c);
int hympi_sim_allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c);
int hympi_sim_gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm c);
int hympi_sim_scatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm c);
int hympi_sim_gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* d, MPI_Datatype rt,
                      int root, MPI_Comm c);
int hympi_sim_scatterv(const void* s, const int* sn, const int* d, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                       int root, MPI_Comm c);

int MPI_Init(int* argc, char*** argv) { return hympi_sim_init(argc, argv); }
int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return hympi_sim_init_thread(argc, argv, required, provided);
}
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return hympi_sim_bcast(buf, count, type, root, comm);
}
int MPI_Group_incl(MPI_Group group, int n, const int* ranks, MPI_Group* out) {
  return hympi_sim_group_incl(group, n, ranks, out);
}
int MPI_Group_free(MPI_Group* group) { return hympi_sim_group_free(group); }
#include "sim_level_forwarders.inc"
}
