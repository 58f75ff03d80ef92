/* C consumer: a hybrid allgather checked against the plain expectation, and
 * hympi_version() against the version the build system found (argv[1]). */
#include <hympi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0, total = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hympi_allgatherv_t ag;
  if (hympi_allgather_create(MPI_COMM_WORLD, 1, sizeof(int), HYMPI_POLICY_HYBRID, HYMPI_SYNC_BARRIER, &ag)) {
    printf("consumer_c: %s\n", hympi_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  *(int*)hympi_allgatherv_slot(ag) = rank + 10;
  hympi_allgatherv_run(ag);
  for (int r = 0; r < size; ++r) bad += ((const int*)hympi_allgatherv_result(ag))[r] != r + 10;
  hympi_allgatherv_free(&ag);
  if (argc < 2 || strcmp(hympi_version(), argv[1]) != 0) {
    printf("consumer_c: version %s, expected %s\n", hympi_version(), argc < 2 ? "?" : argv[1]);
    bad += 1;
  }
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("consumer_c: %s\n", total ? "FAILED" : "ok");
  MPI_Finalize();
  return total != 0;
}
