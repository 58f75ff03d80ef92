/* MPI's contract for the C inits: a bad argument on ONE rank (an invalid info
 * policy, sync or leaders value, NULL counts, a negative count) is the same error
 * on every rank: the same nonzero code and the same hympi_last_error() text,
 * *request NULL everywhere, nobody left waiting inside the init (a hang is a
 * ctest timeout), and the library works afterwards. The cases run on fresh
 * communicators (the topology is built inside a failing init) and on
 * MPI_COMM_WORLD (cached), through the C inits and their Fortran-handle bridges. */
#include <hympi/hympi.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define MESSAGE_MAX 1024

enum kind {
  ALLGATHERV,
  ALLGATHER,
  BCAST,
  BCAST_OVERLAP,
  ALLREDUCE,
  REDUCE,
  ALLGATHERV_F,
  ALLGATHER_F,
  BCAST_F,
  ALLREDUCE_F,
  REDUCE_F,
  KINDS
};
static const char* const kind_names[KINDS] = {"allgatherv", "allgather",   "bcast",        "bcast_overlap",
                                              "allreduce",  "reduce",      "allgatherv_f", "allgather_f",
                                              "bcast_f",    "allreduce_f", "reduce_f"};

enum bad { POLICY, SYNC, NEGATIVE_COUNT, NULL_COUNTS, NEGATIVE_LEADERS, BADS };
static const char* const bad_names[BADS] = {"invalid policy", "invalid sync", "negative count", "NULL counts",
                                            "negative leaders"};
/* What the agreed message must mention. */
static const char* const bad_needles[BADS] = {"'policy'", "'sync'", "count", "counts", "'leaders'"};

static int rank, size, failures;

static void fail(const char* what, const char* kind, const char* bad, int bad_rank) {
  fprintf(stderr, "[rank %d] robust_agreement FAILED: %s (%s, %s on rank %d; last error '%s')\n", rank, what, kind, bad,
          bad_rank, hympi_last_error());
  ++failures;
}

static int is_allgatherv(enum kind k) {
  return k == ALLGATHERV || k == ALLGATHERV_F;
}
static int applies(enum kind k, enum bad b) {
  return b != NULL_COUNTS || is_allgatherv(k);
}

/* The init of kind k; `b` applies on this rank when it is the bad rank. */
static int init(enum kind k, MPI_Comm comm, int is_bad, enum bad b, hympi_request_t* request) {
  static int64_t counts[64];
  for (int r = 0; r < size && r < 64; ++r) counts[r] = 2;
  if (is_bad && b == NEGATIVE_COUNT) counts[rank] = -1;
  const int64_t count = is_bad && b == NEGATIVE_COUNT ? -1 : 2;
  const int64_t* cnt = is_bad && b == NULL_COUNTS ? NULL : counts;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", is_bad && b == POLICY ? "fastest" : "hybrid");
  /* barrier: flag spinning is slow on an oversubscribed MPICH, and sync is not what is tested */
  MPI_Info_set(info, "sync", is_bad && b == SYNC ? "spin" : "barrier");
  MPI_Info_set(info, "leaders", is_bad && b == NEGATIVE_LEADERS ? "-1" : "0");
  if (k == BCAST_OVERLAP) MPI_Info_set(info, "overlap", "true");
  const MPI_Fint fcomm = MPI_Comm_c2f(comm), finfo = MPI_Info_c2f(info), fint = MPI_Type_c2f(MPI_INT);
  const MPI_Fint fsum = MPI_Op_c2f(MPI_SUM);
  int rc;
  switch (k) {
    case ALLGATHERV:
      rc = hympi_allgatherv_init(cnt, MPI_INT, comm, info, request);
      break;
    case ALLGATHER:
      rc = hympi_allgather_init(count, MPI_INT, comm, info, request);
      break;
    case BCAST:
    case BCAST_OVERLAP:
      rc = hympi_bcast_init(count, MPI_INT, size - 1, comm, info, request);
      break;
    case ALLREDUCE:
      rc = hympi_allreduce_init(count, MPI_INT, MPI_SUM, comm, info, request);
      break;
    case REDUCE:
      rc = hympi_reduce_init(count, MPI_INT, MPI_SUM, 0, comm, info, request);
      break;
    case ALLGATHERV_F:
      rc = hympi_allgatherv_init_f(cnt, size, fint, fcomm, finfo, request);
      break;
    case ALLGATHER_F:
      rc = hympi_allgather_init_f(count, fint, fcomm, finfo, request);
      break;
    case BCAST_F:
      rc = hympi_bcast_init_f(count, fint, size - 1, fcomm, finfo, request);
      break;
    case ALLREDUCE_F:
      rc = hympi_allreduce_init_f(count, fint, fsum, fcomm, finfo, request);
      break;
    default:
      rc = hympi_reduce_init_f(count, fint, fsum, 0, fcomm, finfo, request);
      break;
  }
  MPI_Info_free(&info);
  return rc;
}

/* Runs a valid request once, checks its result, frees it. Returns 0 when right. */
static int run_and_free(enum kind k, hympi_request_t* request) {
  int* slot = hympi_request_slot(*request);
  if (slot) slot[0] = 1, slot[1] = rank;
  if (slot && (k == ALLGATHERV || k == ALLGATHER || k == ALLGATHERV_F || k == ALLGATHER_F)) slot[0] = rank + 7;
  if (slot && (k == BCAST || k == BCAST_OVERLAP || k == BCAST_F)) slot[1] = 42;
  int wrong = hympi_start(*request) != HYMPI_SUCCESS || hympi_wait(*request) != HYMPI_SUCCESS;
  const int* got = hympi_request_result(*request);
  switch (k) {
    case ALLGATHERV:
    case ALLGATHER:
    case ALLGATHERV_F:
    case ALLGATHER_F:
      for (int r = 0; r < size; ++r) wrong |= got[2 * r] != r + 7 || got[2 * r + 1] != r;
      break;
    case BCAST:
    case BCAST_OVERLAP:
    case BCAST_F:
      wrong |= got[1] != 42;
      break;
    case ALLREDUCE:
    case ALLREDUCE_F:
      wrong |= got[0] != size || got[1] != size * (size - 1) / 2;
      break;
    default:
      if (rank == 0) wrong |= got == NULL || got[0] != size;
  }
  return wrong | hympi_request_free(request);
}

/* Whether this rank's error (code and hympi_last_error() text) is rank 0's: one
 * broadcast; a rank that differs reports it, the final sum fails the test. */
static int same_error_as_rank0(int rc) {
  struct {
    int rc;
    char text[MESSAGE_MAX];
  } mine, first;
  memset(&mine, 0, sizeof mine);
  mine.rc = rc;
  hympi_last_error_copy(mine.text, MESSAGE_MAX);
  first = mine;
  MPI_Bcast(&first, sizeof first, MPI_BYTE, 0, MPI_COMM_WORLD);
  return first.rc == mine.rc && strcmp(first.text, mine.text) == 0;
}

/* One failing init: the bad argument on bad_rank only. */
static void failing_init(enum kind k, enum bad b, MPI_Comm comm, int bad_rank) {
  const char* kn = kind_names[k];
  const char* bn = bad_names[b];
  hympi_request_t request = (hympi_request_t)&rank; /* not NULL: the init must clear it */
  const int rc = init(k, comm, rank == bad_rank, b, &request);
  if (rc == HYMPI_SUCCESS) fail("the init succeeded", kn, bn, bad_rank);
  if (!same_error_as_rank0(rc)) fail("the error code or message differs from rank 0's", kn, bn, bad_rank);
  if (!strstr(hympi_last_error(), bad_needles[b])) fail("the error does not name the problem", kn, bn, bad_rank);
  if (request != HYMPI_REQUEST_NULL) fail("*request is not NULL after a failed init", kn, bn, bad_rank);
}

/* Every bad argument of kind k on bad_rank, then a valid init + start + wait +
 * free on the same communicator (the library stays usable). On a fresh
 * communicator the first failing init also builds the topology; the order of the
 * bad arguments rotates with k, so each of them meets an uncached topology for
 * some kind. Returns the number of failing inits. */
static int kind_cases(enum kind k, int bad_rank, int fresh) {
  MPI_Comm comm = MPI_COMM_WORLD;
  if (fresh) MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int cases = 0;
  for (int i = 0; i < BADS; ++i) {
    const enum bad b = (enum bad)((i + k) % BADS);
    if (applies(k, b)) failing_init(k, b, comm, bad_rank), ++cases;
  }
  hympi_request_t request = HYMPI_REQUEST_NULL;
  if (init(k, comm, 0, POLICY, &request) != HYMPI_SUCCESS)
    fail("a valid init after the failures", kind_names[k], "-", bad_rank);
  else if (run_and_free(k, &request))
    fail("a valid run after the failures", kind_names[k], "-", bad_rank);
  if (fresh) MPI_Comm_free(&comm);
  return cases;
}

/* A NULL request is a local matter: every call returns at once, without communicating. */
static void null_requests(void) {
  const int args = HYMPI_ERR_ARG;
  int flag = 0;
  if (hympi_start(NULL) != args) fail("hympi_start(NULL)", "request", "NULL request", rank);
  if (hympi_wait(NULL) != args) fail("hympi_wait(NULL)", "request", "NULL request", rank);
  if (hympi_test(NULL, &flag) != args) fail("hympi_test(NULL)", "request", "NULL request", rank);
  if (hympi_request_slot(NULL) || hympi_request_result(NULL) || hympi_request_slot_count(NULL) ||
      hympi_request_result_count(NULL) || hympi_request_elem_size(NULL))
    fail("accessors of a NULL request", "request", "NULL request", rank);
  hympi_request_t none = HYMPI_REQUEST_NULL;
  if (hympi_request_free(&none) || hympi_request_free(NULL)) fail("free of NULL", "request", "NULL request", rank);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  null_requests();
  int cases = 0;
  for (int round = 0; round < 2; ++round) {
    const int bad_rank = round == 0 ? size - 1 : 0;
    if (round == 1 && size == 1) break;
    for (int fresh = 1; fresh >= 0; --fresh)
      /* Fresh communicators (a topology build each, slow on an oversubscribed
       * MPICH) for the C inits; their _f bridges forward to them. */
      for (int k = 0; k < (fresh ? ALLGATHERV_F : KINDS); ++k) cases += kind_cases((enum kind)k, bad_rank, fresh);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("robust_agreement: %d ranks, %d cases: %s\n", size, cases, total ? "FAILED" : "ok");
  MPI_Finalize();
  return total ? 1 : 0;
}
