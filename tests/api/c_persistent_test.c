/* The persistent C API (hympi.h "Persistent collectives") from a C program:
 * every init under both policies and both syncs, start/test/wait with data that
 * changes every round, checked against MPI's own collectives; then every init
 * with bad arguments must fail on every rank with a message naming the problem. */
#include <hympi.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 4

static int rank, size, failures = 0;

static void check(int ok, const char* what) {
  if (ok) return;
  if (++failures <= 20) fprintf(stderr, "[rank %d] FAILED: %s (last error: %s)\n", rank, what, hympi_last_error());
}

/* The init must fail with `code` and a message containing `needle`, on this rank. */
static void expect_error(int rc, int code, const char* needle, hympi_request_t request, const char* what) {
  char message[512];
  snprintf(message, sizeof message, "%s: expected code %d with '%s', got %d '%s'", what, code, needle, rc,
           hympi_last_error());
  check(rc == code && strstr(hympi_last_error(), needle) != NULL && request == HYMPI_REQUEST_NULL, message);
}

static MPI_Info make_info(const char* policy, const char* sync) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", policy);
  MPI_Info_set(info, "sync", sync);
  MPI_Info_set(info, "some_other_layer_hint", "ignored"); /* unknown keys are ignored */
  return info;
}

/* Completes `request` with hympi_test (polling) or hympi_wait, alternating by round. */
static void complete(hympi_request_t request, int round) {
  if (round % 2 == 0) {
    check(hympi_wait(request) == HYMPI_SUCCESS, "wait");
    return;
  }
  /* A time bound, not a poll count: oversubscribed ranks can be descheduled. */
  const double give_up = MPI_Wtime() + 30.0;
  int flag = 0;
  while (!flag && MPI_Wtime() < give_up) check(hympi_test(request, &flag) == HYMPI_SUCCESS, "test");
  check(flag == 1, "test completes within 30 s");
}

static void allgather_rounds(MPI_Info info) {
  const int count = 5;
  hympi_request_t req = HYMPI_REQUEST_NULL;
  check(hympi_allgather_init(count, MPI_DOUBLE, MPI_COMM_WORLD, info, &req) == HYMPI_SUCCESS, "allgather_init");
  check(hympi_request_slot_count(req) == count, "allgather slot count");
  check(hympi_request_result_count(req) == (int64_t)count * size, "allgather result count");
  check(hympi_request_elem_size(req) == sizeof(double), "allgather elem size");
  double* expected = malloc(sizeof(double) * count * size);
  for (int round = 0; round < ROUNDS; ++round) {
    double own[5];
    double* slot = hympi_request_slot(req);
    for (int i = 0; i < count; ++i) own[i] = slot[i] = rank * 1000 + i + round * 0.5;
    check(hympi_start(req) == HYMPI_SUCCESS, "allgather start");
    MPI_Allgather(own, count, MPI_DOUBLE, expected, count, MPI_DOUBLE, MPI_COMM_WORLD);
    complete(req, round);
    const double* got = hympi_request_result(req);
    check(memcmp(got, expected, sizeof(double) * count * size) == 0, "allgather result");
  }
  int flag = 0;
  check(hympi_test(req, &flag) == HYMPI_SUCCESS && flag == 1, "test of an inactive request");
  check(hympi_wait(req) == HYMPI_SUCCESS, "wait of an inactive request");
  free(expected);
  check(hympi_request_free(&req) == HYMPI_SUCCESS && req == HYMPI_REQUEST_NULL, "allgather free");
}

/* Rank r sends r + 1 elements of a contiguous derived type of 3 ints (nested in a dup). */
static void allgatherv_rounds(MPI_Info info) {
  MPI_Datatype triple, dup;
  MPI_Type_contiguous(3, MPI_INT, &triple);
  MPI_Type_dup(triple, &dup);
  MPI_Type_commit(&dup);
  int64_t* counts = malloc(sizeof(int64_t) * size);
  int* rcounts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = r + 1;
    rcounts[r] = 3 * (r + 1);
    displs[r] = total;
    total += rcounts[r];
  }
  hympi_request_t req = HYMPI_REQUEST_NULL;
  check(hympi_allgatherv_init(counts, dup, MPI_COMM_WORLD, info, &req) == HYMPI_SUCCESS, "allgatherv_init");
  check(hympi_request_slot_count(req) == rank + 1, "allgatherv slot count");
  check(hympi_request_result_count(req) == total / 3, "allgatherv result count");
  check(hympi_request_elem_size(req) == 3 * sizeof(int), "allgatherv elem size");
  int* expected = malloc(sizeof(int) * total);
  for (int round = 0; round < ROUNDS; ++round) {
    int own[3 * 8];
    int* slot = hympi_request_slot(req);
    for (int i = 0; i < rcounts[rank]; ++i) own[i] = slot[i] = rank * 100 + i - round;
    check(hympi_start(req) == HYMPI_SUCCESS, "allgatherv start");
    MPI_Allgatherv(own, rcounts[rank], MPI_INT, expected, rcounts, displs, MPI_INT, MPI_COMM_WORLD);
    complete(req, round);
    check(memcmp(hympi_request_result(req), expected, sizeof(int) * total) == 0, "allgatherv result");
  }
  free(expected);
  free(counts);
  free(rcounts);
  free(displs);
  check(hympi_request_free(&req) == HYMPI_SUCCESS, "allgatherv free");
  MPI_Type_free(&dup);
  MPI_Type_free(&triple);
}

static void bcast_rounds(MPI_Info info) {
  const int count = 7;
  /* The first and the last rank as roots (on the emulated layouts: a leader and a non-leader). */
  const int root_step = size > 1 ? size - 1 : 1;
  for (int root = 0; root < size; root += root_step) {
    hympi_request_t req = HYMPI_REQUEST_NULL;
    check(hympi_bcast_init(count, MPI_INT64_T, root, MPI_COMM_WORLD, info, &req) == HYMPI_SUCCESS, "bcast_init");
    check((hympi_request_slot(req) != NULL) == (rank == root), "bcast slot only on the root");
    check(hympi_request_slot_count(req) == (rank == root ? count : 0), "bcast slot count");
    check(hympi_request_result_count(req) == count, "bcast result count");
    for (int round = 0; round < ROUNDS; ++round) {
      if (rank == root) {
        int64_t* slot = hympi_request_slot(req);
        for (int i = 0; i < count; ++i) slot[i] = (int64_t)root << 40 | (int64_t)(round * 10 + i);
      }
      check(hympi_start(req) == HYMPI_SUCCESS, "bcast start");
      complete(req, round);
      const int64_t* got = hympi_request_result(req);
      for (int i = 0; i < count; ++i)
        check(got[i] == ((int64_t)root << 40 | (int64_t)(round * 10 + i)), "bcast result");
    }
    check(hympi_request_free(&req) == HYMPI_SUCCESS, "bcast free");
  }
}

/* Sum of doubles, and max over a contiguous type of 2 ints (reduced element by element). */
static void allreduce_rounds(MPI_Info info) {
  const int count = 9;
  hympi_request_t sum = HYMPI_REQUEST_NULL, max = HYMPI_REQUEST_NULL;
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  check(hympi_allreduce_init(count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, info, &sum) == HYMPI_SUCCESS,
        "allreduce_init sum");
  check(hympi_allreduce_init(count, pair, MPI_MAX, MPI_COMM_WORLD, info, &max) == HYMPI_SUCCESS,
        "allreduce_init max of pairs");
  check(hympi_request_slot_count(sum) == count && hympi_request_result_count(sum) == count, "allreduce counts");
  check(hympi_request_elem_size(max) == 2 * sizeof(int), "allreduce pair elem size");
  for (int round = 0; round < ROUNDS; ++round) {
    double own[9], expected[9];
    int own_pairs[18], expected_pairs[18];
    double* slot = hympi_request_slot(sum);
    int* pairs = hympi_request_slot(max);
    for (int i = 0; i < count; ++i) {
      own[i] = slot[i] = (rank + 1) * 0.125 + i - round;
      own_pairs[2 * i] = pairs[2 * i] = (rank * 7 + i + round) % 5;
      own_pairs[2 * i + 1] = pairs[2 * i + 1] = -rank - i;
    }
    check(hympi_start(sum) == HYMPI_SUCCESS && hympi_start(max) == HYMPI_SUCCESS, "allreduce start");
    MPI_Allreduce(own, expected, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(own_pairs, expected_pairs, 2 * count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    complete(sum, round);
    complete(max, round + 1);
    const double* got = hympi_request_result(sum);
    for (int i = 0; i < count; ++i) check(got[i] == expected[i], "allreduce sum result");
    check(memcmp(hympi_request_result(max), expected_pairs, sizeof expected_pairs) == 0, "allreduce max of pairs");
  }
  check(hympi_request_free(&sum) == HYMPI_SUCCESS && hympi_request_free(&max) == HYMPI_SUCCESS, "allreduce free");
  MPI_Type_free(&pair);
}

/* Sum of int64 to the last rank over rounds: only the root reads a result. */
static void reduce_rounds(MPI_Info info) {
  const int count = 5, root = size - 1;
  hympi_request_t req = HYMPI_REQUEST_NULL;
  check(hympi_reduce_init(count, MPI_INT64_T, MPI_SUM, root, MPI_COMM_WORLD, info, &req) == HYMPI_SUCCESS,
        "reduce_init");
  check(hympi_request_slot_count(req) == count, "reduce slot count");
  check(hympi_request_result_count(req) == (rank == root ? count : 0), "reduce result count only on the root");
  for (int round = 0; round < ROUNDS; ++round) {
    int64_t own[5], expected[5];
    int64_t* slot = hympi_request_slot(req);
    for (int i = 0; i < count; ++i) own[i] = slot[i] = (int64_t)(rank + 1) * (i + 1) - round * ((int64_t)1 << 34);
    check(hympi_start(req) == HYMPI_SUCCESS, "reduce start");
    MPI_Reduce(own, expected, count, MPI_INT64_T, MPI_SUM, root, MPI_COMM_WORLD);
    complete(req, round);
    if (rank == root)
      check(memcmp(hympi_request_result(req), expected, sizeof expected) == 0, "reduce sum on the root");
    else
      check(hympi_request_result(req) == NULL, "reduce result NULL off the root");
  }
  check(hympi_request_free(&req) == HYMPI_SUCCESS, "reduce free");
}

static void start_twice_fails(void) {
  hympi_request_t req = HYMPI_REQUEST_NULL;
  check(hympi_allgather_init(1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req) == HYMPI_SUCCESS, "init");
  *(int*)hympi_request_slot(req) = rank;
  check(hympi_start(req) == HYMPI_SUCCESS, "first start");
  check(hympi_start(req) == HYMPI_ERR_ARG && strstr(hympi_last_error(), "(started, not completed)") != NULL, "second start fails");
  check(hympi_wait(req) == HYMPI_SUCCESS, "wait after the failed start");
  check(((const int*)hympi_request_result(req))[size - 1] == size - 1, "result after the failed start");
  check(hympi_request_free(&req) == HYMPI_SUCCESS, "free");
}

static void bad_arguments(void) {
  hympi_request_t req = HYMPI_REQUEST_NULL;
  /* Wrong datatype size on one rank (the others' init must fail too, not hang). */
  if (size > 1) {
    int rc = hympi_allgather_init(4, rank == 0 ? MPI_INT : MPI_DOUBLE, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    expect_error(rc, HYMPI_ERR_ARG, "datatype size differs", req, "datatype size mismatch");
    rc = hympi_bcast_init(rank == size - 1 ? 3 : 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    expect_error(rc, HYMPI_ERR_ARG, "count differs", req, "bcast count mismatch");
    rc = hympi_allgather_init(rank == 0 ? 2 : 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    expect_error(rc, HYMPI_ERR_ARG, "count differs", req, "allgather count mismatch");
    int64_t counts[64];
    for (int r = 0; r < size; ++r) counts[r] = r == rank ? 2 : 1;
    rc = hympi_allgatherv_init(counts, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    expect_error(rc, HYMPI_ERR_ARG, "count of rank 0 differs", req, "allgatherv counts mismatch");
  }
  /* Unsupported derived types, on one rank only: every rank must see the error. */
  MPI_Datatype vector, resized;
  MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vector);
  MPI_Type_commit(&vector);
  MPI_Type_create_resized(MPI_INT, 0, 8, &resized);
  MPI_Type_commit(&resized);
  int rc = hympi_allgather_init(4, rank == size - 1 ? vector : MPI_DOUBLE, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_UNSUPPORTED, "MPI_Type_vector", req, "vector type");
  rc = hympi_bcast_init(4, resized, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_UNSUPPORTED, "MPI_Type_create_resized", req, "resized type");
  rc = hympi_bcast_init(4, MPI_DOUBLE_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_UNSUPPORTED, "differs from extent", req, "MPI_DOUBLE_INT (padded pair)");
  rc = hympi_allgather_init(4, MPI_DATATYPE_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_ARG, "MPI_DATATYPE_NULL", req, "null datatype");
  rc = hympi_allreduce_init(4, vector, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_UNSUPPORTED, "MPI_Type_vector", req, "allreduce of a vector type");
  rc = hympi_allreduce_init(4, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_ARG, "MPI_OP_NULL", req, "allreduce with MPI_OP_NULL");
  if (size > 1) {
    rc = hympi_allreduce_init(rank == 0 ? 5 : 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    expect_error(rc, HYMPI_ERR_ARG, "count differs", req, "allreduce count mismatch");
    rc = hympi_reduce_init(4, MPI_INT, MPI_SUM, rank == 0 ? 1 : 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    expect_error(rc, HYMPI_ERR_ARG, "root differs", req, "reduce root mismatch");
  }
  rc = hympi_reduce_init(4, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_ARG, "root", req, "reduce root == size");
  MPI_Type_free(&vector);
  MPI_Type_free(&resized);
  /* Root out of range, on every rank or only on one. */
  rc = hympi_bcast_init(4, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_ARG, "root", req, "root == size");
  rc = hympi_bcast_init(4, MPI_INT, rank == 0 ? -1 : 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_ARG, "root -1", req, "root -1 on rank 0");
  rc = hympi_allgather_init(-1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  expect_error(rc, HYMPI_ERR_ARG, "count must be >= 0", req, "negative count");
  /* Known keys with bad values, on the last rank only. */
  const char* bad[][2] = {{"policy", "fast"}, {"sync", "spin"},       {"leaders", "-1"},        {"leaders", "2x"},
                          {"overlap", "yes"}, {"deterministic", "1"}, {"progress_thread", "on"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    MPI_Info info;
    MPI_Info_create(&info);
    if (rank == size - 1) MPI_Info_set(info, bad[i][0], bad[i][1]);
    rc = hympi_allgather_init(2, MPI_INT, MPI_COMM_WORLD, info, &req);
    char needle[64];
    snprintf(needle, sizeof needle, "info key '%s' has value '%s'", bad[i][0], bad[i][1]);
    expect_error(rc, HYMPI_ERR_ARG, needle, req, needle);
    MPI_Info_free(&info);
  }
  /* A valid value that differs between ranks. */
  if (size > 1) {
    MPI_Info info = make_info(rank == 0 ? "pure" : "hybrid", "flags");
    rc = hympi_allgather_init(2, MPI_INT, MPI_COMM_WORLD, info, &req);
    expect_error(rc, HYMPI_ERR_ARG, "info 'policy' differs", req, "policy mismatch");
    MPI_Info_free(&info);
  }
  /* Every agreed key of the options table, valid but different on the last rank, through every init:
   * the same error on every rank, named after the key (one agreement per init). */
  if (size > 1) {
    const char* differ[][3] = {{"sync", "flags", "barrier"},
                               {"leaders", "1", "2"},
                               {"overlap", "false", "true"},
                               {"deterministic", "false", "true"}};
    for (size_t i = 0; i < sizeof differ / sizeof differ[0]; ++i)
      for (int kind = 0; kind < 4; ++kind) {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, differ[i][0], rank == size - 1 ? differ[i][2] : differ[i][1]);
        if (kind == 0) rc = hympi_allgather_init(2, MPI_INT, MPI_COMM_WORLD, info, &req);
        if (kind == 1) rc = hympi_bcast_init(2, MPI_INT, 0, MPI_COMM_WORLD, info, &req);
        if (kind == 2) rc = hympi_allreduce_init(2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, info, &req);
        if (kind == 3) rc = hympi_reduce_init(2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, info, &req);
        char needle[64], what[96];
        snprintf(needle, sizeof needle, "info '%s' differs", differ[i][0]);
        snprintf(what, sizeof what, "%s mismatch, init kind %d", differ[i][0], kind);
        expect_error(rc, HYMPI_ERR_ARG, needle, req, what);
        MPI_Info_free(&info);
      }
  }
  /* A progress thread without MPI_THREAD_MULTIPLE (this program calls MPI_Init), asked on one rank. */
  {
    MPI_Info info;
    MPI_Info_create(&info);
    if (rank == size - 1) MPI_Info_set(info, "progress_thread", "true");
    rc = hympi_allreduce_init(2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, info, &req);
    expect_error(rc, HYMPI_ERR_ARG, "progress_thread needs MPI_THREAD_MULTIPLE", req, "progress_thread refused");
    MPI_Info_free(&info);
  }
  rc = hympi_allgather_init(2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, NULL);
  check(rc == HYMPI_ERR_ARG && strstr(hympi_last_error(), "request is NULL"), "NULL request pointer");
  check(hympi_start(NULL) == HYMPI_ERR_ARG, "start(NULL)");
  check(hympi_request_free(NULL) == HYMPI_SUCCESS, "free(NULL) is a no-op");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Policy x sync: each policy and each sync at least once (CI time). */
  const char* variants[][2] = {{"pure", "flags"}, {"hybrid", "flags"}, {"hybrid", "barrier"}};
  for (int v = 0; v < 3; ++v) {
    MPI_Info info = make_info(variants[v][0], variants[v][1]);
    allgather_rounds(info);
    allgatherv_rounds(info);
    bcast_rounds(info);
    allreduce_rounds(info);
    reduce_rounds(info);
    if (v == 1) {
      MPI_Info_set(info, "overlap", "true");
      bcast_rounds(info);
    }
    MPI_Info_free(&info);
  }
  allgather_rounds(MPI_INFO_NULL);
  MPI_Info deterministic;
  MPI_Info_create(&deterministic);
  MPI_Info_set(deterministic, "deterministic", "true");
  allreduce_rounds(deterministic);
  MPI_Info_free(&deterministic);
  start_twice_fails();
  bad_arguments();
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_persistent: %s (%d failed checks)\n", total ? "FAILED" : "passed", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
