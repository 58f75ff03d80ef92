/* The README's side-by-side example: one persistent allgather written for MPI-4
 * (MPI_Allgather_init; Open MPI 4.1 names it MPIX_Allgather_init) and for hympi,
 * run on the same data and checked against the expected values. The hympi form changes the prefix, drops
 * the send/receive buffers (write the slot, read the result in place) and keeps
 * start/wait/free. MPICH 4.0's MPI_Allgather_init sends the send buffer's contents
 * from the init on every start (the bug of pmodels/mpich#7078, reported there for
 * MPI_Gather_init): reported here as a note, not a failure of hympi. */
#include <hympi.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4
#define PERSISTENT_ALLGATHER MPI_Allgather_init
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define PERSISTENT_ALLGATHER MPIX_Allgather_init
#endif
#endif

#define N 4
#define STEPS 3

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* with_mpi = calloc((size_t)N * size, sizeof(double));

#ifdef PERSISTENT_ALLGATHER
  /* MPI-4 */
  double mine[N];
  MPI_Request req;
  PERSISTENT_ALLGATHER(mine, N, MPI_DOUBLE, with_mpi, N, MPI_DOUBLE, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  for (int step = 0; step < STEPS; ++step) {
    for (int i = 0; i < N; ++i) mine[i] = rank + 0.5 * i + step;
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* ... use with_mpi[0 .. N*size) ... */
  }
  MPI_Request_free(&req);
#else
  if (rank == 0) printf("no MPI-4 persistent collectives in this MPI: hympi only\n");
#endif
  double* expected = malloc(sizeof(double) * N * size);
  for (int i = 0; i < N * size; ++i) expected[i] = i / N + 0.5 * (i % N) + STEPS - 1;
#ifdef PERSISTENT_ALLGATHER
  if (rank == 0 && memcmp(with_mpi, expected, sizeof(double) * N * size) != 0)
    printf("note: this MPI's persistent allgather returned stale data after a restart (pmodels/mpich#7078)\n");
#endif

  /* hympi */
  hympi_request_t hreq;
  hympi_allgather_init(N, MPI_DOUBLE, MPI_COMM_WORLD, MPI_INFO_NULL, &hreq);
  const double* all = NULL;
  for (int step = 0; step < STEPS; ++step) {
    double* slot = hympi_request_slot(hreq);
    for (int i = 0; i < N; ++i) slot[i] = rank + 0.5 * i + step;
    hympi_start(hreq);
    hympi_wait(hreq);
    all = hympi_request_result(hreq); /* ... use all[0 .. N*size): one copy per node ... */
  }
  if (memcmp(all, expected, sizeof(double) * N * size) != 0) failed = 1;
  hympi_request_free(&hreq);

  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_allgather_side_by_side: %s\n", failed ? "FAILED" : "passed");
  free(expected);
  free(with_mpi);
  MPI_Finalize();
  return failed ? 1 : 0;
}
