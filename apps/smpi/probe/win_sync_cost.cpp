// What MPI_Win_sync costs on a real MPI (a memory fence of the unified model): the
// calibration of the simulator's hympi_fence_us (apps/smpi/glue/win_sync_cost.cpp,
// make_platform.py), beside a bare sequentially consistent fence (x86: MFENCE).
// Build and run on one rank (a real MPI, not SMPI):
//   mpicxx -O2 apps/smpi/probe/win_sync_cost.cpp -o win_sync_cost && mpiexec -n 1 ./win_sync_cost [calls]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

// Nanoseconds per call of `step` (best of 5 rounds of `calls`).
template <class Step>
double ns_per_call(long calls, Step step) {
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    const double t0 = MPI_Wtime();
    for (long i = 0; i < calls; ++i) step();
    best = std::min(best, (MPI_Wtime() - t0) * 1e9 / static_cast<double>(calls));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long calls = argc > 1 ? std::atol(argv[1]) : 1000000;
  if (calls < 1) {
    std::fprintf(stderr, "win_sync_cost: calls must be positive, got '%s'\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  double* base = nullptr;
  MPI_Win win;
  MPI_Win_allocate_shared(4096, 1, MPI_INFO_NULL, node, &base, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  volatile double* slot = base;
  const double fence = ns_per_call(calls, [&] {
    *slot = *slot + 1.0;  // a store to order, as after a write into the window
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  });
  const double sync = ns_per_call(calls, [&] {
    *slot = *slot + 1.0;
    MPI_Win_sync(win);
  });
  const double store = ns_per_call(calls, [&] { *slot = *slot + 1.0; });
  const double barrier = ns_per_call(calls / 10 + 1, [&] { MPI_Barrier(MPI_COMM_SELF); });
  std::printf("store %.1f ns, store + fence %.1f ns, store + MPI_Win_sync %.1f ns, MPI_Barrier of one %.1f ns\n", store,
              fence, sync, barrier);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
