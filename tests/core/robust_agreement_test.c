/* MPI's contract for the C creates: a bad argument on ONE rank (invalid policy
 * or sync, NULL out, NULL counts, negative leaders) is the same error on every
 * rank: the same nonzero code and the same hympi_last_error() text, *out NULL
 * everywhere, nobody left waiting inside the create (a hang is a ctest timeout),
 * and the library works afterwards. The cases run on fresh communicators (the
 * topology is built inside a failing create) and on MPI_COMM_WORLD (cached). */
#include <hympi.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define BAD_POLICY 7
#define BAD_SYNC (-3)
#define MESSAGE_MAX 1024

enum kind {
  ALLGATHERV,
  ALLGATHER,
  BCAST,
  BCAST_OVERLAP,
  ALLREDUCE,
  ALLREDUCE_EX,
  REDUCE,
  REDUCE_EX,
  ALLGATHER_F,
  BCAST_F,
  BCAST_OVERLAP_F,
  KINDS
};
static const char* const kind_names[KINDS] = {
    "allgatherv", "allgather",    "bcast",       "bcast_overlap", "allreduce",       "allreduce_ex", "reduce",
    "reduce_ex",  "allgather_f", "bcast_f",     "bcast_overlap_f"};

enum bad { POLICY, SYNC, NULL_OUT, NULL_COUNTS, NEGATIVE_LEADERS, BADS };
static const char* const bad_names[BADS] = {"invalid policy", "invalid sync", "NULL out", "NULL counts",
                                            "negative leaders"};
/* What the agreed message must mention. */
static const char* const bad_needles[BADS] = {"policy", "sync", "output handle", "counts", "leaders"};

static int rank, size, failures;

static void fail(const char* what, const char* kind, const char* bad, int bad_rank) {
  fprintf(stderr, "[rank %d] robust_agreement FAILED: %s (%s, %s on rank %d; last error '%s')\n", rank, what, kind, bad,
          bad_rank, hympi_last_error());
  ++failures;
}

static int applies(enum kind k, enum bad b) {
  if (b == NULL_COUNTS) return k == ALLGATHERV;
  if (b == NEGATIVE_LEADERS) return k == ALLREDUCE_EX || k == REDUCE_EX;
  return 1;
}

/* Any of the handle types, freed by the kind's own free. */
union handle {
  hympi_allgatherv_t ag;
  hympi_bcast_t bc;
  hympi_allreduce_t ar;
  hympi_reduce_t re;
};

static int is_null(enum kind k, const union handle* h) {
  switch (k) {
    case ALLGATHERV:
    case ALLGATHER:
    case ALLGATHER_F:
      return h->ag == NULL;
    case BCAST:
    case BCAST_OVERLAP:
    case BCAST_F:
    case BCAST_OVERLAP_F:
      return h->bc == NULL;
    case ALLREDUCE:
    case ALLREDUCE_EX:
      return h->ar == NULL;
    default:
      return h->re == NULL;
  }
}

/* The create of kind k; `bad` applies on this rank when it is the bad rank. */
static int create(enum kind k, MPI_Comm comm, int is_bad, enum bad b, union handle* h) {
  static int64_t counts[64];
  for (int r = 0; r < size && r < 64; ++r) counts[r] = 2;
  const int policy = is_bad && b == POLICY ? BAD_POLICY : HYMPI_POLICY_HYBRID;
  /* barrier: flag spinning is slow on an oversubscribed MPICH, and sync is not what is tested */
  const int sync = is_bad && b == SYNC ? BAD_SYNC : HYMPI_SYNC_BARRIER;
  const int leaders = is_bad && b == NEGATIVE_LEADERS ? -1 : 0;
  const int64_t* cnt = is_bad && b == NULL_COUNTS ? NULL : counts;
  const int null_out = is_bad && b == NULL_OUT;
  const MPI_Fint fcomm = MPI_Comm_c2f(comm);
  switch (k) {
    case ALLGATHERV:
      return hympi_allgatherv_create(comm, cnt, sizeof(int), policy, sync, null_out ? NULL : &h->ag);
    case ALLGATHER:
      return hympi_allgather_create(comm, 2, sizeof(int), policy, sync, null_out ? NULL : &h->ag);
    case BCAST:
      return hympi_bcast_create(comm, 2, sizeof(int), policy, sync, null_out ? NULL : &h->bc);
    case BCAST_OVERLAP:
      return hympi_bcast_create_overlap(comm, 2, sizeof(int), policy, sync, null_out ? NULL : &h->bc);
    case ALLREDUCE:
      return hympi_allreduce_create(comm, 2, MPI_INT, MPI_SUM, policy, sync, null_out ? NULL : &h->ar);
    case ALLREDUCE_EX:
      return hympi_allreduce_create_ex(comm, 2, MPI_INT, MPI_SUM, policy, sync, leaders, 0, null_out ? NULL : &h->ar);
    case REDUCE:
      return hympi_reduce_create(comm, 2, MPI_INT, MPI_SUM, 0, policy, sync, null_out ? NULL : &h->re);
    case REDUCE_EX:
      return hympi_reduce_create_ex(comm, 2, MPI_INT, MPI_SUM, 0, policy, sync, leaders, 0, null_out ? NULL : &h->re);
    case ALLGATHER_F:
      return hympi_allgather_create_f(fcomm, 2, sizeof(int), policy, sync, null_out ? NULL : &h->ag);
    case BCAST_F:
      return hympi_bcast_create_f(fcomm, 2, sizeof(int), policy, sync, null_out ? NULL : &h->bc);
    default:
      return hympi_bcast_create_overlap_f(fcomm, 2, sizeof(int), policy, sync, null_out ? NULL : &h->bc);
  }
}

/* Runs a valid object once, checks its result, frees it. Returns 0 when right. */
static int run_and_free(enum kind k, union handle* h) {
  int wrong = 0;
  switch (k) {
    case ALLGATHERV:
    case ALLGATHER:
    case ALLGATHER_F: {
      int* slot = hympi_allgatherv_slot(h->ag);
      slot[0] = rank, slot[1] = -rank;
      wrong = hympi_allgatherv_run(h->ag) != HYMPI_SUCCESS;
      const int* got = hympi_allgatherv_result(h->ag);
      for (int r = 0; r < size; ++r) wrong |= got[2 * r] != r || got[2 * r + 1] != -r;
      return wrong | hympi_allgatherv_free(&h->ag);
    }
    case BCAST:
    case BCAST_OVERLAP:
    case BCAST_F:
    case BCAST_OVERLAP_F: {
      const int root = size - 1;
      if (rank == root) ((int*)hympi_bcast_buffer(h->bc))[1] = 42;
      wrong = hympi_bcast_run(h->bc, root, 2) != HYMPI_SUCCESS;
      wrong |= ((const int*)hympi_bcast_result(h->bc))[1] != 42;
      return wrong | hympi_bcast_free(&h->bc);
    }
    case ALLREDUCE:
    case ALLREDUCE_EX: {
      int* slot = hympi_allreduce_slot(h->ar);
      slot[0] = 1, slot[1] = rank;
      wrong = hympi_allreduce_run(h->ar) != HYMPI_SUCCESS;
      const int* got = hympi_allreduce_result(h->ar);
      wrong |= got[0] != size || got[1] != size * (size - 1) / 2;
      return wrong | hympi_allreduce_free(&h->ar);
    }
    default: {
      int* slot = hympi_reduce_slot(h->re);
      slot[0] = 1, slot[1] = rank;
      wrong = hympi_reduce_run(h->re) != HYMPI_SUCCESS;
      const int* got = hympi_reduce_result(h->re);
      if (rank == 0) wrong |= got == NULL || got[0] != size;
      return wrong | hympi_reduce_free(&h->re);
    }
  }
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

/* One failing create: the bad argument on bad_rank only. */
static void failing_create(enum kind k, enum bad b, MPI_Comm comm, int bad_rank) {
  const char* kn = kind_names[k];
  const char* bn = bad_names[b];
  union handle h;
  memset(&h, 0, sizeof h);
  const int rc = create(k, comm, rank == bad_rank, b, &h);
  if (rc == HYMPI_SUCCESS) fail("the create succeeded", kn, bn, bad_rank);
  if (!same_error_as_rank0(rc)) fail("the error code or message differs from rank 0's", kn, bn, bad_rank);
  if (!strstr(hympi_last_error(), bad_needles[b])) fail("the error does not name the problem", kn, bn, bad_rank);
  if (!is_null(k, &h)) fail("*out is not NULL after a failed create", kn, bn, bad_rank);
}

/* Every bad argument of kind k on bad_rank, then a valid create + run + free on
 * the same communicator (the library stays usable). On a fresh communicator the
 * first failing create also builds the topology; the order of the bad arguments
 * rotates with k, so each of them meets an uncached topology for some kind.
 * Returns the number of failing creates. */
static int kind_cases(enum kind k, int bad_rank, int fresh) {
  MPI_Comm comm = MPI_COMM_WORLD;
  if (fresh) MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int cases = 0;
  for (int i = 0; i < BADS; ++i) {
    const enum bad b = (enum bad)((i + k) % BADS);
    if (applies(k, b)) failing_create(k, b, comm, bad_rank), ++cases;
  }
  union handle h;
  memset(&h, 0, sizeof h);
  if (create(k, comm, 0, POLICY, &h) != HYMPI_SUCCESS)
    fail("a valid create after the failures", kind_names[k], "-", bad_rank);
  else if (run_and_free(k, &h))
    fail("a valid run after the failures", kind_names[k], "-", bad_rank);
  if (fresh) MPI_Comm_free(&comm);
  return cases;
}

/* A NULL handle is a local matter: every call returns the error at once. */
static void null_handles(void) {
  const int args = HYMPI_ERR_ARG;
  if (hympi_bcast_start(NULL, 0, 1) != args) fail("bcast_start(NULL)", "bcast", "NULL handle", rank);
  if (hympi_bcast_wait(NULL) != args) fail("bcast_wait(NULL)", "bcast", "NULL handle", rank);
  if (hympi_bcast_run(NULL, 0, 1) != args) fail("bcast_run(NULL)", "bcast", "NULL handle", rank);
  if (hympi_allgatherv_run(NULL) != args) fail("allgatherv_run(NULL)", "allgatherv", "NULL handle", rank);
  if (hympi_allreduce_run(NULL) != args) fail("allreduce_run(NULL)", "allreduce", "NULL handle", rank);
  if (hympi_reduce_run(NULL) != args) fail("reduce_run(NULL)", "reduce", "NULL handle", rank);
  if (hympi_bcast_buffer(NULL) || hympi_bcast_result(NULL) || hympi_allgatherv_slot(NULL))
    fail("accessors of a NULL handle", "any", "NULL handle", rank);
  hympi_bcast_t none = NULL;
  if (hympi_bcast_free(&none) || hympi_bcast_free(NULL)) fail("free of NULL", "bcast", "NULL handle", rank);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  null_handles();
  int cases = 0;
  for (int round = 0; round < 2; ++round) {
    const int bad_rank = round == 0 ? size - 1 : 0;
    if (round == 1 && size == 1) break;
    for (int fresh = 1; fresh >= 0; --fresh)
      /* Fresh communicators (a topology build each, slow on an oversubscribed
       * MPICH) for the C creates; their _f bridges forward to them. */
      for (int k = 0; k < (fresh ? ALLGATHER_F : KINDS); ++k) cases += kind_cases((enum kind)k, bad_rank, fresh);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("robust_agreement: %d ranks, %d cases: %s\n", size, cases, total ? "FAILED" : "ok");
  MPI_Finalize();
  return total ? 1 : 0;
}
