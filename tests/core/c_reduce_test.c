/* The reductions' C API in a C program: allreduce and reduce (pure, hybrid,
 * deterministic, a user op) checked against MPI_Allreduce / MPI_Reduce, and a
 * bad argument reported as an error code with a message on every rank. */
#include <hympi.h>
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

  for (int policy = HYMPI_POLICY_PURE; policy <= HYMPI_POLICY_HYBRID; ++policy)
    for (int det = 0; det <= 1; ++det)
      for (int o = 0; o < 3; ++o) {
        const int root = (size - 1 + o) % size;
        hympi_allreduce_t ar = NULL;
        hympi_reduce_t rd = NULL;
        /* The plain creates (automatic leaders, not deterministic) and the _ex ones with 2 leaders. */
        const int plain = !det && o == 0;
        const int ar_rc =
            plain ? hympi_allreduce_create(MPI_COMM_WORLD, COUNT, MPI_INT64_T, ops[o], policy, HYMPI_SYNC_FLAGS, &ar)
                  : hympi_allreduce_create_ex(MPI_COMM_WORLD, COUNT, MPI_INT64_T, ops[o], policy, HYMPI_SYNC_FLAGS, 2,
                                              det, &ar);
        if (ar_rc) bad += fail(rank, "allreduce_create");
        const int rd_rc = det ? hympi_reduce_create_ex(MPI_COMM_WORLD, COUNT, MPI_INT64_T, ops[o], root, policy,
                                                       HYMPI_SYNC_BARRIER, 2, det, &rd)
                              : hympi_reduce_create(MPI_COMM_WORLD, COUNT, MPI_INT64_T, ops[o], root, policy,
                                                    HYMPI_SYNC_BARRIER, &rd);
        if (rd_rc) bad += fail(rank, "reduce_create");
        for (int it = 0; it < 3; ++it) {
          int64_t own[COUNT], expected[COUNT];
          int64_t* a = hympi_allreduce_slot(ar);
          int64_t* r = hympi_reduce_slot(rd);
          for (int i = 0; i < COUNT; ++i) own[i] = a[i] = r[i] = (rank + 1) * (i - 3) + it * 11;
          if (hympi_allreduce_run(ar)) bad += fail(rank, "allreduce_run");
          if (hympi_reduce_run(rd)) bad += fail(rank, "reduce_run");
          MPI_Allreduce(own, expected, COUNT, MPI_INT64_T, ops[o], MPI_COMM_WORLD);
          const int64_t* got = hympi_allreduce_result(ar);
          for (int i = 0; i < COUNT; ++i)
            if (got[i] != expected[i]) bad += fail(rank, "allreduce value");
          const int64_t* at_root = hympi_reduce_result(rd);
          if ((rank == root) != (at_root != NULL)) bad += fail(rank, "reduce result must be non-NULL on root only");
          for (int i = 0; at_root && i < COUNT; ++i)
            if (at_root[i] != expected[i]) bad += fail(rank, "reduce value");
        }
        if (hympi_allreduce_bytes_per_node(ar) == 0 || hympi_reduce_bytes_per_node(rd) == 0)
          bad += fail(rank, "bytes_per_node");
        if (hympi_allreduce_free(&ar) || ar != NULL) bad += fail(rank, "allreduce_free");
        if (hympi_reduce_free(&rd) || rd != NULL) bad += fail(rank, "reduce_free");
      }

  /* A bad argument on one rank only. */
  hympi_reduce_t rd = NULL;
  const int rc = hympi_reduce_create(MPI_COMM_WORLD, 4, MPI_DOUBLE, MPI_SUM, rank == size - 1 ? size : 0,
                                     HYMPI_POLICY_HYBRID, HYMPI_SYNC_FLAGS, &rd);
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
