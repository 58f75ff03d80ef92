/* C consumer: a hybrid allgather request checked against the plain expectation,
 * and hympi_version() against the version the build system found (argv[1]).
 * Built with <hympi/hympi.h> by CMake and with the 0.1 spelling <hympi.h> by the
 * pkg-config Makefile (CONSUMER_OLD_INCLUDE), which the compat include path keeps. */
#ifdef CONSUMER_OLD_INCLUDE
#include <hympi.h>
#else
#include <hympi/hympi.h>
#endif
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0, total = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", "hybrid");
  MPI_Info_set(info, "sync", "barrier");
  hympi_request_t ag;
  if (hympi_allgather_init(1, MPI_INT, MPI_COMM_WORLD, info, &ag)) {
    printf("consumer_c: %s\n", hympi_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Info_free(&info);
  *(int*)hympi_request_slot(ag) = rank + 10;
  if (hympi_start(ag) || hympi_wait(ag)) bad += 1;
  for (int r = 0; r < size; ++r) bad += ((const int*)hympi_request_result(ag))[r] != r + 10;
  hympi_request_free(&ag);
  if (argc < 2 || strcmp(hympi_version(), argv[1]) != 0) {
    printf("consumer_c: version %s, expected %s\n", hympi_version(), argc < 2 ? "?" : argv[1]);
    bad += 1;
  }
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("consumer_c: %s\n", total ? "FAILED" : "ok");
  MPI_Finalize();
  return total != 0;
}
