/* The C API in a C program: allgather and bcast requests under both policies
 * checked against MPI, hympi_node_info, and the idle function. */
#include <hympi/hympi.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 5

static int idle_calls = 0;
static void count_idle(void) {
  ++idle_calls;
}

static int fail(int rank, const char* what) {
  fprintf(stderr, "[rank %d] c_allgather FAILED: %s (%s)\n", rank, what, hympi_last_error());
  return 1;
}

/* The info of a request: policy, sync and (bcast) overlap. */
static MPI_Info options(const char* policy, const char* sync, const char* overlap) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", policy);
  MPI_Info_set(info, "sync", sync);
  MPI_Info_set(info, "overlap", overlap);
  return info;
}

/* Broadcasts of 3 ints from every root in turn (one request per root, as
 * MPI_Bcast_init fixes the root); only the root has a slot. */
static int bcast_every_root(int rank, int size, const char* policy) {
  int bad = 0;
  MPI_Info info = options(policy, "barrier", "false");
  for (int root = 0; root < size; ++root) {
    hympi_request_t bc = HYMPI_REQUEST_NULL;
    if (hympi_bcast_init(3, MPI_INT, root, MPI_COMM_WORLD, info, &bc)) bad += fail(rank, "bcast_init");
    int* buf = hympi_request_slot(bc);
    if ((rank == root) != (buf != NULL)) bad += fail(rank, "bcast slot must be non-NULL on the root only");
    if (buf) buf[0] = root, buf[1] = -root, buf[2] = 7;
    if (hympi_start(bc) || hympi_wait(bc)) bad += fail(rank, "bcast start/wait");
    const int* got = hympi_request_result(bc);
    if (got[0] != root || got[1] != -root || got[2] != 7) ++bad;
    hympi_request_free(&bc);
  }
  MPI_Info_free(&info);
  return bad;
}

/* Lookahead (info overlap): from every root, broadcast s+1 flies while result s is
 * read, and s stays valid after it lands. */
static int bcast_lookahead(int rank, int size, const char* policy) {
  int bad = 0;
  MPI_Info info = options(policy, "flags", "true");
  for (int root = 0; root < size; ++root) {
    hympi_request_t bc = HYMPI_REQUEST_NULL;
    if (hympi_bcast_init(2, MPI_INT, root, MPI_COMM_WORLD, info, &bc)) bad += fail(rank, "bcast_init (overlap)");
    const int* previous = NULL;
    for (int step = 0; step < 3; ++step) {
      int* buf = hympi_request_slot(bc);
      if (buf) buf[0] = step, buf[1] = root;
      if (hympi_start(bc)) bad += fail(rank, "bcast start");
      if (previous && (previous[0] != step - 1 || previous[1] != root)) ++bad;
      if (hympi_wait(bc)) bad += fail(rank, "bcast wait");
      if (previous && (previous[0] != step - 1 || previous[1] != root)) ++bad;
      previous = hympi_request_result(bc);
      if (previous[0] != step || previous[1] != root) ++bad;
    }
    /* A completed broadcast stays completed: waiting again returns at once (MPI's
     * wait on an inactive request). */
    if (hympi_wait(bc)) bad += fail(rank, "bcast wait again after completion");
    hympi_request_free(&bc);
  }
  MPI_Info_free(&info);
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int node_rank = -1, node_size = -1, node_index = -1, num_nodes = -1;
  if (hympi_node_info(MPI_COMM_WORLD, &node_rank, &node_size, &node_index, &num_nodes) != HYMPI_SUCCESS)
    bad += fail(rank, "node_info");
  /* Consistent over the world: one leader (node rank 0) per node, the leaders'
   * node sizes add up to the world, and the ranks that share a node index are
   * node_size ranks numbered 0 .. node_size-1 by node_rank. */
  int leaders[2] = {node_rank == 0, node_rank == 0 ? node_size : 0}, counted[2] = {0, 0};
  MPI_Allreduce(leaders, counted, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm node;
  int in_node = -1, of_node = -1;
  MPI_Comm_split(MPI_COMM_WORLD, node_index, node_rank, &node);
  MPI_Comm_rank(node, &in_node);
  MPI_Comm_size(node, &of_node);
  MPI_Comm_free(&node);
  if (node_rank < 0 || node_index < 0 || node_index >= num_nodes || counted[0] != num_nodes || counted[1] != size ||
      in_node != node_rank || of_node != node_size)
    bad += fail(rank, "node_info values");

  const char* policies[] = {"pure", "hybrid"};
  for (int p = 0; p < 2; ++p) {
    MPI_Info info = options(policies[p], "flags", "false");
    hympi_request_t ag = HYMPI_REQUEST_NULL;
    if (hympi_allgather_init(COUNT, MPI_DOUBLE, MPI_COMM_WORLD, info, &ag)) bad += fail(rank, "allgather_init");
    MPI_Info_free(&info);
    double* expected = malloc(sizeof(double) * COUNT * size);
    for (int it = 0; it < 10; ++it) {
      double* mine = hympi_request_slot(ag);
      double own[COUNT];
      for (int i = 0; i < COUNT; ++i) own[i] = mine[i] = rank * 100 + i + it * 0.25;
      if (hympi_start(ag) || hympi_wait(ag)) bad += fail(rank, "allgather start/wait");
      MPI_Allgather(own, COUNT, MPI_DOUBLE, expected, COUNT, MPI_DOUBLE, MPI_COMM_WORLD);
      const double* got = hympi_request_result(ag);
      for (int i = 0; i < COUNT * size; ++i)
        if (got[i] != expected[i]) ++bad;
    }
    free(expected);
    /* rank r's part at r * COUNT (the comparison above), COUNT * size in all. */
    if (hympi_request_slot_count(ag) != COUNT || hympi_request_result_count(ag) != (int64_t)COUNT * size)
      bad += fail(rank, "slot and result counts");
    hympi_request_free(&ag);
    bad += bcast_every_root(rank, size, policies[p]);
    bad += bcast_lookahead(rank, size, policies[p]);
  }
  /* The idle function: node leaders arrive 200 ms late at a hybrid flag bcast, so
   * every other node rank waits long enough to call it; NULL restores the default. */
  {
    MPI_Info info = options("hybrid", "flags", "false");
    hympi_request_t bc = HYMPI_REQUEST_NULL;
    if (hympi_bcast_init(1, MPI_INT, 0, MPI_COMM_WORLD, info, &bc)) bad += fail(rank, "bcast_init (idle)");
    MPI_Info_free(&info);
    hympi_set_idle_function(count_idle);
    if (node_rank == 0) {
      const double t0 = MPI_Wtime();
      while (MPI_Wtime() - t0 < 0.2) {
      }
    }
    if (hympi_start(bc) || hympi_wait(bc)) bad += fail(rank, "bcast (idle)");
    hympi_set_idle_function(NULL);
    if (node_rank > 0 && idle_calls == 0) bad += fail(rank, "a waiting rank never called the idle function");
    const int calls = idle_calls;
    if (hympi_start(bc) || hympi_wait(bc)) bad += fail(rank, "bcast (default idle)");
    if (idle_calls != calls) bad += fail(rank, "the idle function was called after NULL restored the default");
    hympi_request_free(&bc);
  }
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_allgather: %s (%d bad values, %d nodes)\n", total ? "FAILED" : "passed", total, num_nodes);
  MPI_Finalize();
  return total ? 1 : 0;
}
