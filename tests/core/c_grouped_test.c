/* The info key "groups" of the persistent C inits in a C program: hympi_bcast_init,
 * hympi_allgather_init, hympi_allgatherv_init, hympi_allreduce_init and
 * hympi_reduce_init with groups = 1, 2, 3, p, auto and 1048577 under both policies, checked
 * against the flat MPI collective over rounds driven by start/wait and start/test;
 * hympi_request_groups against the G asked (capped at ranks or nodes); bad values
 * ("0", "-1", "2.5", "two", "1e2", " 2", "2 ", "+2", above 2147483647, different on
 * one rank, with deterministic) are HYMPI_ERR_ARG on every rank with the request
 * left NULL. */
#include <hympi.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_drive.h"

#define COUNT 301

static int rank_, size_;

static int fail(const char* what, const char* info_groups, const char* policy) {
  fprintf(stderr, "[rank %d] c_grouped FAILED: %s (groups=%s policy=%s) %s\n", rank_, what, info_groups, policy,
          hympi_last_error());
  return 1;
}

static int64_t val(int rank, int i, int it) {
  return (int64_t)((rank * 7919 + i * 31 + it * 101) % 1000) - 500;
}

static int check_all(const char* groups, const char* policy, int nodes) {
  int bad = 0;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "groups", groups);
  MPI_Info_set(info, "policy", policy);
  hympi_request_t bc = NULL, ag = NULL, agv = NULL, ar = NULL, rd = NULL;
  int64_t counts[64];
  int64_t total = 0;
  for (int r = 0; r < size_; ++r) total += counts[r] = (r == 1) ? 0 : 10 + 7 * r;
  const int root = size_ - 1;
  if (hympi_bcast_init(COUNT, MPI_INT64_T, root, MPI_COMM_WORLD, info, &bc)) bad += fail("bcast_init", groups, policy);
  if (hympi_allgather_init(COUNT, MPI_INT64_T, MPI_COMM_WORLD, info, &ag)) bad += fail("allgather_init", groups, policy);
  if (hympi_allgatherv_init(counts, MPI_INT64_T, MPI_COMM_WORLD, info, &agv))
    bad += fail("allgatherv_init", groups, policy);
  if (hympi_allreduce_init(COUNT, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD, info, &ar))
    bad += fail("allreduce_init", groups, policy);
  if (hympi_reduce_init(COUNT, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD, info, &rd))
    bad += fail("reduce_init", groups, policy);
  MPI_Info_free(&info);
  if (bad) return bad;
  /* The G used: the asked one capped at the units (auto: anything in range). */
  const int units = strcmp(policy, "hybrid") == 0 ? nodes : size_;
  int asked = 0;
  if (strcmp(groups, "auto") != 0) sscanf(groups, "%d", &asked);
  const int used = hympi_request_groups(bc);
  if (asked ? (strcmp(policy, "pure") == 0 ? used != (asked < units ? asked : units) : used < 1 || used > asked)
            : (used < 1 || used > units))
    bad += fail("hympi_request_groups", groups, policy);

  static int64_t mine[COUNT], ref[COUNT * 64], all[COUNT * 64];
  static double dm[COUNT], dref[COUNT];
  int icounts[64], idispls[64];
  for (int r = 0, d = 0; r < size_; ++r) icounts[r] = (int)counts[r], idispls[r] = d, d += (int)counts[r];
  for (int it = 0; it < 4; ++it) {
    for (int i = 0; i < COUNT; ++i) mine[i] = val(rank_, i, it), dm[i] = (double)val(rank_, i, it) * 0.5;
    if (rank_ == root) memcpy(hympi_request_slot(bc), mine, sizeof mine);
    memcpy(hympi_request_slot(ag), mine, sizeof mine);
    memcpy(hympi_request_slot(agv), mine, (size_t)counts[rank_] * sizeof(int64_t));
    memcpy(hympi_request_slot(ar), mine, sizeof mine);
    memcpy(hympi_request_slot(rd), dm, sizeof dm);
    if (drive(bc, it) || drive(ag, it) || drive(agv, it) || drive(ar, it) || drive(rd, it))
      bad += fail("start/wait/test", groups, policy);
    memcpy(ref, mine, sizeof mine);
    MPI_Bcast(ref, COUNT, MPI_INT64_T, root, MPI_COMM_WORLD);
    if (memcmp(hympi_request_result(bc), ref, sizeof mine)) bad += fail("bcast value", groups, policy);
    MPI_Allgather(mine, COUNT, MPI_INT64_T, all, COUNT, MPI_INT64_T, MPI_COMM_WORLD);
    if (memcmp(hympi_request_result(ag), all, (size_t)size_ * sizeof mine)) bad += fail("allgather value", groups, policy);
    MPI_Allgatherv(mine, icounts[rank_], MPI_INT64_T, all, icounts, idispls, MPI_INT64_T, MPI_COMM_WORLD);
    if (memcmp(hympi_request_result(agv), all, (size_t)total * sizeof(int64_t)))
      bad += fail("allgatherv value", groups, policy);
    MPI_Allreduce(mine, ref, COUNT, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (memcmp(hympi_request_result(ar), ref, sizeof mine)) bad += fail("allreduce value", groups, policy);
    MPI_Reduce(dm, dref, COUNT, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank_ == 0 ? memcmp(hympi_request_result(rd), dref, sizeof dm) != 0 : hympi_request_result(rd) != NULL)
      bad += fail("reduce value", groups, policy);
  }
  hympi_request_free(&bc);
  hympi_request_free(&ag);
  hympi_request_free(&agv);
  hympi_request_free(&ar);
  hympi_request_free(&rd);
  return bad;
}

/* A bad value on `on_rank` (-1: every rank; others pass "2"): HYMPI_ERR_ARG everywhere. */
static int check_refused(const char* value, int on_rank, int deterministic) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "groups", (on_rank < 0 || on_rank == rank_) ? value : "2");
  if (deterministic) MPI_Info_set(info, "deterministic", "true");
  hympi_request_t req = NULL;
  const int rc = hympi_allreduce_init(4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, info, &req);
  MPI_Info_free(&info);
  if (rc == HYMPI_ERR_ARG && req == NULL && strstr(hympi_last_error(), "groups")) return 0;
  fprintf(stderr, "[rank %d] c_grouped FAILED: groups '%s' (rank %d) gave %d: %s\n", rank_, value, on_rank, rc,
          hympi_last_error());
  if (req) hympi_request_free(&req);
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  int node_rank, node_size, node_index, nodes, bad = 0;
  hympi_node_info(MPI_COMM_WORLD, &node_rank, &node_size, &node_index, &nodes);
  if (size_ > 64) {
    if (rank_ == 0) fprintf(stderr, "c_grouped: at most 64 ranks\n");
    MPI_Finalize();
    return 2;
  }
  char p[16];
  snprintf(p, sizeof p, "%d", size_);
  /* 1048577: above 2^20, still a G reduced to the units (issue 54 case 5). */
  const char* groups[] = {"1", "2", "3", p, "auto", "1048577"};
  const char* policies[] = {"pure", "hybrid"};
  for (int q = 0; q < 2; ++q)
    for (int g = 0; g < 6; ++g) bad += check_all(groups[g], policies[q], nodes);
  /* One spelling for every integer key: digits only, at most 2147483647. */
  const char* refused[] = {"0", "-1", "2.5", "two", "1e2", " 2", "2 ", "+2", "2147483648", "99999999999"};
  for (int i = 0; i < 10; ++i) bad += check_refused(refused[i], -1, 0);
  if (size_ > 1) bad += check_refused("3", 0, 0); /* rank 0 asks 3, the others 2 */
  bad += check_refused("2", -1, 1);               /* with deterministic */
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0) printf("c_grouped_test: %s (%d failed checks)\n", total ? "FAILED" : "passed", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
