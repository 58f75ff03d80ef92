/* hympi_gather_init and hympi_scatter_init from C: both policies, info groups 1, 2
 * and auto, roots 0 and p - 1, against MPI_Gather / MPI_Scatter bit for bit over
 * rounds driven by start/wait and start/test; slot and result counts; bad input
 * (root out of range, root, count, datatype or groups differing between ranks, a
 * bad groups value, a NULL request) is the same error code and message on every
 * rank with the request left NULL, and the next init works. */
#include <hympi.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_drive.h"

#define COUNT 257

static int rank_, size_, failures_;

static void check(int ok, const char* what, const char* detail) {
  if (ok) return;
  ++failures_;
  fprintf(stderr, "[rank %d] c_rooted FAILED: %s (%s) %s\n", rank_, what, detail, hympi_last_error());
}

typedef int (*init_fn)(int64_t, MPI_Datatype, int, MPI_Comm, MPI_Info, hympi_request_t*);

static void one(int gather, const char* policy, const char* groups, int root) {
  char detail[96];
  snprintf(detail, sizeof detail, "%s policy=%s groups=%s root=%d", gather ? "gather" : "scatter", policy, groups,
           root);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", policy);
  MPI_Info_set(info, "groups", groups);
  hympi_request_t req = HYMPI_REQUEST_NULL;
  const init_fn init = gather ? hympi_gather_init : hympi_scatter_init;
  const int rc = init(COUNT, MPI_INT64_T, root, MPI_COMM_WORLD, info, &req);
  MPI_Info_free(&info);
  check(rc == HYMPI_SUCCESS, "init", detail);
  if (rc != HYMPI_SUCCESS) return;
  const int is_root = rank_ == root;
  const int64_t whole = (int64_t)COUNT * size_;
  check(hympi_request_slot_count(req) == (gather ? COUNT : (is_root ? whole : 0)), "slot count", detail);
  check(hympi_request_result_count(req) == (gather ? (is_root ? whole : 0) : COUNT), "result count", detail);
  static int64_t data[COUNT * 64], ref[COUNT * 64];
  for (int it = 0; it < 4; ++it) {
    const int64_t n = gather ? COUNT : (is_root ? whole : 0);
    for (int64_t i = 0; i < n; ++i) data[i] = (rank_ * 1000003 + i * 7 + it * 11) ^ (i << 40);
    if (n) memcpy(hympi_request_slot(req), data, (size_t)n * sizeof(int64_t));
    check(drive(req, it) == HYMPI_SUCCESS, "drive", detail);
    if (gather)
      MPI_Gather(data, COUNT, MPI_INT64_T, ref, COUNT, MPI_INT64_T, root, MPI_COMM_WORLD);
    else
      MPI_Scatter(data, COUNT, MPI_INT64_T, ref, COUNT, MPI_INT64_T, root, MPI_COMM_WORLD);
    const int64_t m = hympi_request_result_count(req);
    if (m) check(memcmp(hympi_request_result(req), ref, (size_t)m * sizeof(int64_t)) == 0, "result vs MPI", detail);
    else check(hympi_request_result(req) == NULL, "no result off the root", detail);
  }
  check(hympi_request_free(&req) == HYMPI_SUCCESS && req == HYMPI_REQUEST_NULL, "free", detail);
}

/* The same code and message on every rank, request NULL; then an init works. */
static void refused(int gather, const char* what, int64_t count, MPI_Datatype type, int root, const char* groups) {
  MPI_Info info = MPI_INFO_NULL;
  if (groups) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "groups", groups);
  }
  hympi_request_t req = HYMPI_REQUEST_NULL;
  const int rc = (gather ? hympi_gather_init : hympi_scatter_init)(count, type, root, MPI_COMM_WORLD, info, &req);
  if (groups) MPI_Info_free(&info);
  char mine[512], first[512];
  hympi_last_error_copy(mine, sizeof mine);
  memcpy(first, mine, sizeof mine);
  MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
  check(rc == HYMPI_ERR_ARG, what, mine);
  check(req == HYMPI_REQUEST_NULL, "request left NULL", what);
  check(strcmp(mine, first) == 0, "the same message on every rank", what);
  check(strstr(mine, gather ? "hympi_gather_init" : "hympi_scatter_init") != NULL, "the message names the call", what);
  hympi_request_t ok = HYMPI_REQUEST_NULL;
  check((gather ? hympi_gather_init : hympi_scatter_init)(3, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &ok) ==
            HYMPI_SUCCESS,
        "an init after a refused one", what);
  hympi_request_free(&ok);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const char* policies[] = {"pure", "hybrid"};
  const char* groups[] = {"1", "2", "auto"};
  for (int g = 0; g < 2; ++g)
    for (int p = 0; p < 2; ++p)
      for (int k = 0; k < 3; ++k) {
        one(g, policies[p], groups[k], size_ - 1);
        one(g, policies[p], groups[k], 0);
      }
  const int last = rank_ == size_ - 1;
  for (int g = 0; g < 2; ++g) {
    refused(g, "root out of range", 4, MPI_INT, size_, NULL);
    refused(g, "negative count", -1, MPI_INT, 0, NULL);
    refused(g, "bad groups", 4, MPI_INT, 0, "0");
    if (size_ > 1) {
      refused(g, "root differing", 4, MPI_INT, last ? 1 : 0, NULL);
      refused(g, "count differing", last ? 5 : 4, MPI_INT, 0, NULL);
      refused(g, "datatype differing", 4, last ? MPI_DOUBLE : MPI_INT, 0, NULL);
      refused(g, "groups differing", 4, MPI_INT, 0, last ? "2" : "1");
    }
    const int rc = (g ? hympi_gather_init : hympi_scatter_init)(4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, NULL);
    check(rc == HYMPI_ERR_ARG, "NULL request", "");
  }
  int total = 0;
  MPI_Allreduce(&failures_, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0) printf("c_rooted_test: %s (%d failed checks)\n", total ? "FAILED" : "passed", total);
  MPI_Finalize();
  return total != 0;
}
