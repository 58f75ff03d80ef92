/* hympi C API: the same collectives as the C++ API (hympi/collectives.hpp).
 * Every function returns HYMPI_SUCCESS or an error code; hympi_last_error()
 * gives the message naming the problem (per thread). */
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
enum hympi_policy { HYMPI_POLICY_PURE = 0, HYMPI_POLICY_HYBRID = 1 };
enum hympi_sync { HYMPI_SYNC_BARRIER = 0, HYMPI_SYNC_FLAGS = 1 };

typedef struct hympi_allgatherv_s* hympi_allgatherv_t;
typedef struct hympi_bcast_s* hympi_bcast_t;

/* The message of this thread's last failed call ("" after a success). The pointer
 * is valid only until this thread's next hympi call: copy it (or use
 * hympi_last_error_copy) to keep it. */
const char* hympi_last_error(void);
/* The library's version, "major.minor.patch" (the CMake package and pkg-config version). */
const char* hympi_version(void);

/* Node layout of `comm` (node layout from HYMPI_* environment variables).
 * Collective over `comm` the first time it is called for a communicator (node
 * discovery), free afterwards. */
int hympi_node_info(MPI_Comm comm, int* node_rank, int* node_size, int* node_index, int* num_nodes);

/* counts: one per rank of comm, identical on every rank (checked exactly).
 * slot and result pointers stay valid until this rank's next run (or the free);
 * every error is raised on every rank of comm, and a failed call leaves the
 * object as it was. Free objects before freeing their communicator: once it is
 * freed their calls fail with HYMPI_ERR_ARG. */
int hympi_allgatherv_create(MPI_Comm comm, const int64_t* counts, size_t elem_size, int policy, int sync,
                            hympi_allgatherv_t* out);
int hympi_allgather_create(MPI_Comm comm, int64_t count_per_rank, size_t elem_size, int policy, int sync,
                           hympi_allgatherv_t* out);
void* hympi_allgatherv_slot(hympi_allgatherv_t h);         /* write this rank's part here */
int hympi_allgatherv_run(hympi_allgatherv_t h);            /* collective */
const void* hympi_allgatherv_result(hympi_allgatherv_t h); /* whole result, comm-rank order */
int64_t hympi_allgatherv_displ(hympi_allgatherv_t h, int rank);
int hympi_allgatherv_free(hympi_allgatherv_t* h); /* collective */

/* The result stays valid until this rank's next run/start. With HYMPI_POLICY_PURE
 * and no overlap the buffer is the result: build the next payload elsewhere.
 * Freeing a bcast with a broadcast in flight completes it first. */
int hympi_bcast_create(MPI_Comm comm, int64_t capacity, size_t elem_size, int policy, int sync, hympi_bcast_t* out);
void* hympi_bcast_buffer(hympi_bcast_t h); /* the root writes here */
int hympi_bcast_run(hympi_bcast_t h, int root, int64_t count);
const void* hympi_bcast_result(hympi_bcast_t h);
int hympi_bcast_free(hympi_bcast_t* h); /* collective */
/* Lookahead: a bcast created with _overlap keeps a result readable until this
 * rank's second start after it, so the next broadcast can fly (start ... wait)
 * while the current result is used. One broadcast in flight at a time. */
int hympi_bcast_create_overlap(MPI_Comm comm, int64_t capacity, size_t elem_size, int policy, int sync,
                               hympi_bcast_t* out);
int hympi_bcast_start(hympi_bcast_t h, int root, int64_t count);
int hympi_bcast_wait(hympi_bcast_t h);

/* What a rank waiting on a node neighbour's flag (HYMPI_SYNC_FLAGS) does after
 * spinning: default sched_yield(). Cooperative-thread runtimes (SimGrid SMPI)
 * must switch ranks here. Process-wide; NULL restores the default. */
void hympi_set_idle_function(void (*idle)(void));

/* Fortran bridges: communicator as MPI_Fint (mpi_f08 handle %MPI_VAL). */
int hympi_allgather_create_f(MPI_Fint comm, int64_t count_per_rank, size_t elem_size, int policy, int sync,
                             hympi_allgatherv_t* out);
int hympi_allgatherv_create_f(MPI_Fint comm, const int64_t* counts, size_t elem_size, int policy, int sync,
                              hympi_allgatherv_t* out);
int hympi_bcast_create_f(MPI_Fint comm, int64_t capacity, size_t elem_size, int policy, int sync, hympi_bcast_t* out);
int hympi_bcast_create_overlap_f(MPI_Fint comm, int64_t capacity, size_t elem_size, int policy, int sync,
                                 hympi_bcast_t* out);
int hympi_node_info_f(MPI_Fint comm, int* node_rank, int* node_size, int* node_index, int* num_nodes);
/* Copies the last error message into buf (NUL-terminated, truncated to len). */
void hympi_last_error_copy(char* buf, int len);

/* ---- Reductions (hympi/reduce.hpp) -------------------------------------------
 * count elements of a predefined datatype per rank, combined by a commutative
 * MPI_Op (predefined or MPI_Op_create(..., 1, ...)); count, type, op, root and
 * the options must agree on every rank (checked: the same error everywhere).
 * Write this rank's vector into _slot, call _run (collective), read _result:
 * valid until this rank's next _run. A reduce's _result is NULL except on root.
 * leaders: bridge ranks per node under hybrid (0 = automatic, see README);
 * deterministic != 0: the same bits for any layout, placement and policy.
 * The plain _create uses leaders = 0, deterministic = 0. */
typedef struct hympi_allreduce_s* hympi_allreduce_t;
typedef struct hympi_reduce_s* hympi_reduce_t;
int hympi_allreduce_create(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int policy, int sync,
                           hympi_allreduce_t* out);
int hympi_allreduce_create_ex(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int policy, int sync,
                              int leaders, int deterministic, hympi_allreduce_t* out);
void* hympi_allreduce_slot(hympi_allreduce_t h);
int hympi_allreduce_run(hympi_allreduce_t h); /* collective */
const void* hympi_allreduce_result(hympi_allreduce_t h);
size_t hympi_allreduce_bytes_per_node(hympi_allreduce_t h);
int hympi_allreduce_free(hympi_allreduce_t* h); /* collective */
int hympi_reduce_create(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int root, int policy, int sync,
                        hympi_reduce_t* out);
int hympi_reduce_create_ex(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, int root, int policy, int sync,
                           int leaders, int deterministic, hympi_reduce_t* out);
void* hympi_reduce_slot(hympi_reduce_t h);
int hympi_reduce_run(hympi_reduce_t h); /* collective */
const void* hympi_reduce_result(hympi_reduce_t h); /* NULL except on root */
size_t hympi_reduce_bytes_per_node(hympi_reduce_t h);
int hympi_reduce_free(hympi_reduce_t* h); /* collective */
/* Fortran bridges: communicator, datatype and op as MPI_Fint (mpi_f08 %MPI_VAL). */
int hympi_allreduce_create_f(MPI_Fint comm, int64_t count, MPI_Fint type, MPI_Fint op, int policy, int sync,
                             int leaders, int deterministic, hympi_allreduce_t* out);
int hympi_reduce_create_f(MPI_Fint comm, int64_t count, MPI_Fint type, MPI_Fint op, int root, int policy, int sync,
                          int leaders, int deterministic, hympi_reduce_t* out);
/* ---- end of Reductions ---- */

#ifdef __cplusplus
}
#endif
#endif /* HYMPI_H */
