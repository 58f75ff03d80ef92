/* hympi C API (installed as <hympi/hympi.h>): the collectives of the C++ API
 * (hympi/collectives.hpp, hympi/reduce.hpp) as MPI-4 style persistent requests.
 * Every function returns HYMPI_SUCCESS or an error code; hympi_last_error()
 * gives the message naming the problem (per thread). The handle creates of 0.1
 * (hympi_allgather_create & co.) were retired in 0.2: lib/API.md has the table
 * from each old call to its request. */
#ifndef HYMPI_H
#define HYMPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hympi_error {
  HYMPI_SUCCESS = 0,
  HYMPI_ERR_ARG = 1,
  HYMPI_ERR_MPI = 2,
  HYMPI_ERR_NOMEM = 3,
  HYMPI_ERR_UNSUPPORTED = 4,
  HYMPI_ERR_INTERNAL = 5
};

/* ---- Persistent collectives (MPI-4 style) ---------------------------------
 * The shape of MPI_Allgather_init / MPI_Start / MPI_Wait / MPI_Request_free: an
 * init fixes counts, datatype, (op,) root and communicator and returns a request;
 * hympi_start begins one exchange, hympi_test / hympi_wait complete it, and the
 * request can be started again. The difference from MPI: there is no send or
 * receive buffer argument. This rank writes its data into hympi_request_slot()
 * (bcast and scatter: the root only) before hympi_start and reads the whole result in place at
 * hympi_request_result() after completion (one copy per node under the hybrid
 * policy); a result stays valid until this rank's next hympi_start (overlap bcast:
 * the second start after it) or the free. Inits, start, wait and free are
 * collective over comm like their MPI counterparts.
 * Datatypes: predefined types and contiguous derived types of them (any nesting of
 * MPI_Type_contiguous / MPI_Type_dup with extent == size; the reductions also take
 * padded pair types, MPI_DOUBLE_INT ...); anything else (vector, struct, resized,
 * ...) fails with HYMPI_ERR_UNSUPPORTED naming the constructor.
 * Info keys (MPI_INFO_NULL for all defaults; keys hympi does not know are ignored,
 * as MPI ignores unknown hints, because one info object may carry hints for
 * several layers; a known key with a bad value fails with HYMPI_ERR_ARG naming
 * key and value):
 *   policy         "hybrid" (default) | "pure" (or the papers' "hy", "ori", "mpi")
 *   sync           "flags" (default) | "barrier"
 *   leaders        bridge ranks per node, "0" (automatic, default) | "1" | "k"
 *   overlap        "false" (default) | "true": bcast lookahead (a result stays
 *                  readable through the next broadcast's flight); others ignore it
 *   deterministic  "false" (default) | "true": allreduce only, same bits for any
 *                  layout; others ignore it
 *   progress_thread "false" (default) | "true": hybrid start/test/wait complete
 *                  in a thread of each process, so a rank busy computing holds
 *                  nobody back; needs MPI_THREAD_MULTIPLE (else HYMPI_ERR_ARG)
 *   groups         "1" (default, flat) | "G" (a positive integer) | "auto": G
 *                  balanced groups of consecutive ranks (hybrid: whole nodes), the
 *                  leaders' collective then each group's (lib/README.md "Grouped
 *                  collectives"); "auto" = the route model's G; a G above the ranks
 *                  (hybrid: nodes) is reduced (hympi_request_groups says the G
 *                  used); "0", negatives, non-integers: HYMPI_ERR_ARG. Not with
 *                  deterministic "true" (HYMPI_ERR_ARG).
 * An integer value (leaders, groups) is decimal digits only (no sign, space,
 * point or exponent), at most 2147483647; anything else is HYMPI_ERR_ARG.
 * counts, datatype size, root and info values must agree on every rank; every
 * error is raised on every rank of comm, and a failed init leaves *request NULL.
 * Free requests before freeing their communicator: once it is freed their calls
 * fail with HYMPI_ERR_ARG. */
typedef struct hympi_request_s* hympi_request_t;
#define HYMPI_REQUEST_NULL ((hympi_request_t)0)

/* count elements of `type` from every rank; result: rank r's at r * count. */
int hympi_allgather_init(int64_t count, MPI_Datatype type, MPI_Comm comm, MPI_Info info, hympi_request_t* request);
/* counts: one per rank of comm; result packed in rank order (rank r's data after
 * the counts of ranks 0..r-1). */
int hympi_allgatherv_init(const int64_t* counts, MPI_Datatype type, MPI_Comm comm, MPI_Info info,
                          hympi_request_t* request);
/* count elements from `root`: the root writes them into hympi_request_slot(). */
int hympi_bcast_init(int64_t count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                     hympi_request_t* request);
/* count elements of `type` combined by `op` (commutative; predefined or
 * MPI_Op_create'd). Types and ops as hympi/reduce.hpp: predefined ops on the types
 * MPI 4.1 6.9.2 defines them for (padded pair types such as MPI_DOUBLE_INT too:
 * elem size is then their extent), element by element on a contiguous type of
 * one; a user op gets `type` and a count of whole elements, as from MPI. */
int hympi_allreduce_init(int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
                         hympi_request_t* request);
/* The same reduction to `root` (fixed at init, as MPI_Reduce_init): every rank
 * writes its slot, only the root's result is non-NULL (result count 0 elsewhere).
 * Nonblocking like the others (the core's Reduce::start). */
int hympi_reduce_init(int64_t count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                      hympi_request_t* request);
/* As MPI_Gather_init: every rank writes count elements into its slot; the
 * root's result holds size * count elements, rank r's at r * count (result NULL
 * and result count 0 elsewhere). Root and count fixed at init and agreed. */
int hympi_gather_init(int64_t count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                      hympi_request_t* request);
/* As MPI_Scatter_init: the root writes size * count elements into its slot, rank
 * r's part at r * count (slot NULL and slot count 0 elsewhere); every rank's
 * result holds its count elements. Root and count fixed at init and agreed. */
int hympi_scatter_init(int64_t count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                       hympi_request_t* request);

/* Begins one exchange of what this rank wrote in the slot. Fails on an active
 * request (started, not yet completed). */
int hympi_start(hympi_request_t request);
/* *flag = 1 once the exchange is complete (the request is then inactive and the
 * result readable); 0 while it flies. An inactive request gives 1 at once. */
int hympi_test(hympi_request_t request, int* flag);
/* Completes the exchange; returns at once on an inactive request (as MPI_Wait). */
int hympi_wait(hympi_request_t request);
/* Collective; completes an active request first. Sets *request to HYMPI_REQUEST_NULL. */
int hympi_request_free(hympi_request_t* request);

/* Where this rank writes its hympi_request_slot_count() elements before
 * hympi_start; NULL where a rank sends nothing (bcast, scatter: every rank but the root). */
void* hympi_request_slot(hympi_request_t request);
/* The completed result: hympi_request_result_count() elements. */
const void* hympi_request_result(hympi_request_t request);
int64_t hympi_request_slot_count(hympi_request_t request);
int64_t hympi_request_result_count(hympi_request_t request);
/* Bytes per element (MPI_Type_size of the init's datatype; for a reduction its
 * extent, which differs for padded pair types); 0 for NULL. */
size_t hympi_request_elem_size(hympi_request_t request);
/* The number of groups the request uses (info "groups" reduced to what can be
 * made, or the automatic choice; 1 = flat); 0 for NULL. */
int hympi_request_groups(hympi_request_t request);

/* ---- Process-wide calls ------------------------------------------------ */

/* The message of this thread's last failed call ("" after a success). The pointer
 * is valid only until this thread's next hympi call: copy it (or use
 * hympi_last_error_copy) to keep it. */
const char* hympi_last_error(void);
/* Copies the last error message into buf (NUL-terminated, truncated to len). */
void hympi_last_error_copy(char* buf, int len);
/* The library's version, "major.minor.patch" (the CMake package and pkg-config version). */
const char* hympi_version(void);

/* Node layout of `comm` (node layout from HYMPI_* environment variables).
 * Collective over `comm` the first time it is called for a communicator (node
 * discovery), free afterwards. comm, here and in every init, must be an
 * intracommunicator: an intercommunicator is HYMPI_ERR_ARG on every rank, naming it. */
int hympi_node_info(MPI_Comm comm, int* node_rank, int* node_size, int* node_index, int* num_nodes);

/* What a rank waiting on a node neighbour's flag (info sync "flags") does after
 * spinning: default progress + sched_yield(). Cooperative-thread runtimes (SimGrid
 * SMPI) must switch ranks here. Process-wide; NULL restores the default. */
void hympi_set_idle_function(void (*idle)(void));

/* ---- Fortran bridges (module hympi_f08) ----------------------------------
 * Handles as MPI_Fint (mpi_f08 %MPI_VAL, or the integer handles of `use mpi`). */
int hympi_allgather_init_f(int64_t count, MPI_Fint type, MPI_Fint comm, MPI_Fint info, hympi_request_t* request);
/* ncounts: entries in counts (checked against the communicator's size). */
int hympi_allgatherv_init_f(const int64_t* counts, int64_t ncounts, MPI_Fint type, MPI_Fint comm, MPI_Fint info,
                            hympi_request_t* request);
int hympi_bcast_init_f(int64_t count, MPI_Fint type, int root, MPI_Fint comm, MPI_Fint info, hympi_request_t* request);
int hympi_allreduce_init_f(int64_t count, MPI_Fint type, MPI_Fint op, MPI_Fint comm, MPI_Fint info,
                           hympi_request_t* request);
int hympi_reduce_init_f(int64_t count, MPI_Fint type, MPI_Fint op, int root, MPI_Fint comm, MPI_Fint info,
                        hympi_request_t* request);
int hympi_gather_init_f(int64_t count, MPI_Fint type, int root, MPI_Fint comm, MPI_Fint info, hympi_request_t* request);
int hympi_scatter_init_f(int64_t count, MPI_Fint type, int root, MPI_Fint comm, MPI_Fint info,
                         hympi_request_t* request);

int hympi_node_info_f(MPI_Fint comm, int* node_rank, int* node_size, int* node_index, int* num_nodes);

#ifdef __cplusplus
}
#endif
#endif /* HYMPI_H */
