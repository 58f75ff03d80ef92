#include <hympi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hympi_allgatherv_t ag;
  if (hympi_allgather_create(MPI_COMM_WORLD, 1, sizeof(int), HYMPI_POLICY_HYBRID, HYMPI_SYNC_BARRIER, &ag)) bad = 1;
  *(int*)hympi_allgatherv_slot(ag) = rank + 10;
  hympi_allgatherv_run(ag);
  for (int r = 0; r < size; ++r) bad += ((const int*)hympi_allgatherv_result(ag))[r] != r + 10;
  hympi_allgatherv_free(&ag);
  printf("consumer_c: %s\n", bad ? "FAILED" : "ok");
  MPI_Finalize();
  return bad != 0;
}
