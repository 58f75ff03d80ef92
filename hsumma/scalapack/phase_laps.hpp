// A stopwatch adding each lap to one phase's bucket, one clock read per lap:
// how the drop-in splits a call's time into phases (PhaseSeconds,
// pdgemm_call.hpp), its step loop included (block_cyclic_summa.hpp).
#pragma once
#include <mpi.h>

namespace hympi::hsumma::scalapack {

class Laps {
 public:
  Laps() : mark_(MPI_Wtime()) {}
  void lap(double& bucket) {
    const double now = MPI_Wtime();
    bucket += now - mark_;
    mark_ = now;
  }

 private:
  double mark_;
};

// The step loop's laps: the local updates to `gemm`, the rest (packing,
// broadcasts, waits) to `panels`.
struct StepLaps {
  Laps& laps;
  double& gemm;
  double& panels;
};

}  // namespace hympi::hsumma::scalapack
