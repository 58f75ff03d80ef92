/* Preloaded into MPICH test runs (LD_PRELOAD, cmake/HympiTesting.cmake): a waiting
 * MPICH rank gives up its core, as Open MPI's ranks do under mpi_yield_when_idle=1.
 * MPICH 4's ch4 device polls without yielding, so 4 ranks on 2 cores spend most of
 * their time slices spinning while the rank that holds the data waits for a core.
 * Debian's MPICH (ch4:ucx) polls UCX once per turn of every wait loop through
 * ucp_worker_progress; this wrapper calls the real one and yields when it found
 * nothing to do. It changes no message and no MPI code path, only who runs while a
 * rank waits. Under another device (ch4:ofi) nothing calls it and it does nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker) {
  static progress_fn real;
  progress_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
  if (!next) {
    next = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
    __atomic_store_n(&real, next, __ATOMIC_RELEASE);
  }
  const unsigned events = next(worker);
  if (events == 0) sched_yield();
  return events;
}
