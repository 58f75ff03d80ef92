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

int MPI_Init(int* argc, char*** argv) { return hympi_sim_init(argc, argv); }
int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return hympi_sim_init_thread(argc, argv, required, provided);
}
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return hympi_sim_bcast(buf, count, type, root, comm);
}
}
