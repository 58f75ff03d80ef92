/* The reductions' C API in a C program: allreduce and reduce requests (pure,
 * hybrid, deterministic, a user op) checked against MPI_Allreduce / MPI_Reduce,
 * and a bad argument reported as an error code with a message on every rank. */
#include <hympi/hympi.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define COUNT 7

static int fail(int rank, const char* what) {
  fprintf(stderr, "[rank %d] c_reduce FAILED: %s (%s)\n", rank, what, hympi_last_error());
  return 1;
}

/* Commutative user op on int64: a (+) b = a + b + 1 (MPI_SUM cannot imitate it). */
static void plus_one(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int64_t*)inout)[i] += ((const int64_t*)in)[i] + 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Op user;
  MPI_Op_create(plus_one, 1, &user);
  const MPI_Op ops[] = {MPI_SUM, MPI_MAX, user};

  const char* policies[] = {"pure", "hybrid"};
  for (int policy = 0; policy < 2; ++policy)
    for (int det = 0; det <= 1; ++det)
      for (int o = 0; o < 3; ++o) {
        const int root = (size - 1 + o) % size;
        /* Automatic leaders and not deterministic (the defaults), or 2 leaders. */
        const int defaults = !det && o == 0;
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "policy", policies[policy]);
        MPI_Info_set(info, "sync", "flags");
        if (!defaults) MPI_Info_set(info, "leaders", "2");
        if (det) MPI_Info_set(info, "deterministic", "true");
        hympi_request_t ar = HYMPI_REQUEST_NULL, rd = HYMPI_REQUEST_NULL;
        if (hympi_allreduce_init(COUNT, MPI_INT64_T, ops[o], MPI_COMM_WORLD, info, &ar))
          bad += fail(rank, "allreduce_init");
        MPI_Info_set(info, "sync", "barrier");
        if (!det && !defaults) MPI_Info_delete(info, "leaders"); /* reduce: automatic unless deterministic */
        if (hympi_reduce_init(COUNT, MPI_INT64_T, ops[o], root, MPI_COMM_WORLD, info, &rd))
          bad += fail(rank, "reduce_init");
        MPI_Info_free(&info);
        for (int it = 0; it < 3; ++it) {
          int64_t own[COUNT], expected[COUNT];
          int64_t* a = hympi_request_slot(ar);
          int64_t* r = hympi_request_slot(rd);
          for (int i = 0; i < COUNT; ++i) own[i] = a[i] = r[i] = (rank + 1) * (i - 3) + it * 11;
          if (hympi_start(ar) || hympi_wait(ar)) bad += fail(rank, "allreduce start/wait");
          if (hympi_start(rd) || hympi_wait(rd)) bad += fail(rank, "reduce start/wait");
          MPI_Allreduce(own, expected, COUNT, MPI_INT64_T, ops[o], MPI_COMM_WORLD);
          const int64_t* got = hympi_request_result(ar);
          for (int i = 0; i < COUNT; ++i)
            if (got[i] != expected[i]) bad += fail(rank, "allreduce value");
          const int64_t* at_root = hympi_request_result(rd);
          if ((rank == root) != (at_root != NULL)) bad += fail(rank, "reduce result must be non-NULL on root only");
          for (int i = 0; at_root && i < COUNT; ++i)
            if (at_root[i] != expected[i]) bad += fail(rank, "reduce value");
        }
        if (hympi_request_free(&ar) || ar != NULL) bad += fail(rank, "allreduce free");
        if (hympi_request_free(&rd) || rd != NULL) bad += fail(rank, "reduce free");
      }

  /* A bad argument on one rank only. */
  hympi_request_t rd = HYMPI_REQUEST_NULL;
  const int rc =
      hympi_reduce_init(4, MPI_DOUBLE, MPI_SUM, rank == size - 1 ? size : 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rd);
  if (rc != HYMPI_ERR_ARG || rd != NULL || !strstr(hympi_last_error(), "root"))
    bad += fail(rank, "a bad root on one rank must fail on every rank");
  /* The message outlives later calls only as a copy, truncated to the buffer. */
  char full[512], shortened[8];
  hympi_last_error_copy(full, (int)sizeof full);
  hympi_last_error_copy(shortened, (int)sizeof shortened);
  if (strcmp(full, hympi_last_error()) != 0 || strlen(shortened) != sizeof shortened - 1 ||
      strncmp(full, shortened, sizeof shortened - 1) != 0)
    bad += fail(rank, "last_error_copy must copy the message, truncated and NUL-terminated");

  MPI_Op_free(&user);
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_reduce: %s (%d failures)\n", total ? "FAILED" : "passed", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
