/* Rank 0 and rank 1 ping-pong BYTES bytes REPS times; rank 0 prints the one-way time in us.
   A plain SMPI program (no hympi glue): tests/smpi/check_graphene.py runs it on the Graphene
   platforms to see each setting move the time the way it should. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int bytes = argc > 1 ? atoi(argv[1]) : 8, reps = argc > 2 ? atoi(argv[2]) : 4;
  char* buf = calloc(bytes > 0 ? bytes : 1, 1);
  double t0 = 0;
  for (int i = -1; i < reps; i++) {  /* round -1: a warm-up that leaves rank 1 waiting (no barrier skew) */
    if (i == 0) t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) printf("oneway_us %.6f\n", (MPI_Wtime() - t0) / (2.0 * reps) * 1e6);
  free(buf);
  MPI_Finalize();
  return 0;
}
