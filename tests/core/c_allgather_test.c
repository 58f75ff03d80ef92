/* The C API in a C program: hybrid allgather and bcast checked against MPI. */
#include <hympi.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define COUNT 5

static int idle_calls = 0;
static void count_idle(void) { ++idle_calls; }

static int fail(int rank, const char* what) {
  fprintf(stderr, "[rank %d] c_allgather FAILED: %s (%s)\n", rank, what, hympi_last_error());
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int node_rank, node_size, node_index, num_nodes;
  if (hympi_node_info(MPI_COMM_WORLD, &node_rank, &node_size, &node_index, &num_nodes) != HYMPI_SUCCESS)
    bad += fail(rank, "node_info");

  for (int policy = HYMPI_POLICY_PURE; policy <= HYMPI_POLICY_HYBRID; ++policy) {
    hympi_allgatherv_t ag = NULL;
    if (hympi_allgather_create(MPI_COMM_WORLD, COUNT, sizeof(double), policy, HYMPI_SYNC_FLAGS, &ag))
      bad += fail(rank, "allgather_create");
    double* expected = malloc(sizeof(double) * COUNT * size);
    for (int it = 0; it < 10; ++it) {
      double* mine = hympi_allgatherv_slot(ag);
      double own[COUNT];
      for (int i = 0; i < COUNT; ++i) own[i] = mine[i] = rank * 100 + i + it * 0.25;
      if (hympi_allgatherv_run(ag)) bad += fail(rank, "allgather_run");
      MPI_Allgather(own, COUNT, MPI_DOUBLE, expected, COUNT, MPI_DOUBLE, MPI_COMM_WORLD);
      const double* got = hympi_allgatherv_result(ag);
      for (int i = 0; i < COUNT * size; ++i)
        if (got[i] != expected[i]) ++bad;
    }
    free(expected);
    if (hympi_allgatherv_displ(ag, size - 1) != (int64_t)COUNT * (size - 1)) bad += fail(rank, "displ");
    hympi_allgatherv_free(&ag);

    hympi_bcast_t bc = NULL;
    if (hympi_bcast_create(MPI_COMM_WORLD, 3, sizeof(int), policy, HYMPI_SYNC_BARRIER, &bc))
      bad += fail(rank, "bcast_create");
    for (int root = 0; root < size; ++root) {
      if (rank == root) {
        int* buf = hympi_bcast_buffer(bc);
        buf[0] = root;
        buf[1] = -root;
        buf[2] = 7;
      }
      hympi_bcast_run(bc, root, 3);
      const int* got = hympi_bcast_result(bc);
      if (got[0] != root || got[1] != -root || got[2] != 7) ++bad;
    }
    hympi_bcast_free(&bc);

    /* Lookahead: broadcast r+1 flies while result r is read, and r stays valid after it lands. */
    if (hympi_bcast_create_overlap(MPI_COMM_WORLD, 2, sizeof(int), policy, HYMPI_SYNC_FLAGS, &bc))
      bad += fail(rank, "bcast_create_overlap");
    const int* previous = NULL;
    for (int step = 0; step < 2 * size + 1; ++step) {
      const int root = step % size;
      if (rank == root) {
        int* buf = hympi_bcast_buffer(bc);
        buf[0] = step;
        buf[1] = root;
      }
      if (hympi_bcast_start(bc, root, 2)) bad += fail(rank, "bcast_start");
      if (previous && (previous[0] != step - 1 || previous[1] != (step - 1) % size)) ++bad;
      if (hympi_bcast_wait(bc)) bad += fail(rank, "bcast_wait");
      if (previous && (previous[0] != step - 1 || previous[1] != (step - 1) % size)) ++bad;
      previous = hympi_bcast_result(bc);
      if (previous[0] != step || previous[1] != root) ++bad;
    }
    /* A completed broadcast stays completed: waiting again returns at once (as MPI's
     * wait on an inactive request). After a blocking run there is no start to wait for. */
    if (hympi_bcast_wait(bc)) bad += fail(rank, "bcast_wait again after completion");
    if (hympi_bcast_run(bc, 0, 1)) bad += fail(rank, "bcast_run");
    if (hympi_bcast_wait(bc) == HYMPI_SUCCESS || !strstr(hympi_last_error(), "without a start"))
      bad += fail(rank, "bcast_wait without start must fail");
    hympi_bcast_free(&bc);
  }
  /* The idle function: node leaders arrive 200 ms late at a hybrid flag bcast, so
   * every other node rank waits long enough to call it; NULL restores the default. */
  {
    hympi_bcast_t bc = NULL;
    if (hympi_bcast_create(MPI_COMM_WORLD, 1, sizeof(int), HYMPI_POLICY_HYBRID, HYMPI_SYNC_FLAGS, &bc))
      bad += fail(rank, "bcast_create (idle)");
    hympi_set_idle_function(count_idle);
    if (node_rank == 0) {
      const double t0 = MPI_Wtime();
      while (MPI_Wtime() - t0 < 0.2) {
      }
    }
    if (hympi_bcast_run(bc, 0, 1)) bad += fail(rank, "bcast_run (idle)");
    hympi_set_idle_function(NULL);
    if (node_rank > 0 && idle_calls == 0) bad += fail(rank, "a waiting rank never called the idle function");
    hympi_bcast_free(&bc);
  }
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_allgather: %s (%d bad values, %d nodes)\n", total ? "FAILED" : "passed", total, num_nodes);
  MPI_Finalize();
  return total ? 1 : 0;
}
