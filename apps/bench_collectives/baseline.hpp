// --baseline: which of the MPI library's own collective algorithms the pure
// policy runs on. The MPIs read these settings in MPI_Init, so the app sets them
// in its own environment before MPI_Init (apply_baseline_environment) and reads
// back through MPI_T afterwards what the library really uses (baseline_setting):
//   default       the library's own choice: the variables below are removed from
//                 the environment (a value the launcher exported would otherwise
//                 leak into a "default" run);
//   hierarchical  its node-aware algorithms:
//                   Open MPI  OMPI_MCA_coll_han_priority=100 (coll/han, as
//                             `mpirun --mca coll_han_priority 100`);
//                   MPICH     MPIR_CVAR_DEVICE_COLLECTIVES=none and
//                             MPIR_CVAR_{ALLREDUCE,REDUCE,BCAST}_INTRA_ALGORITHM=smp
//                             (MPIR's SMP-aware algorithms; allgather has none);
//                 anything else (or an Open MPI without han): exit 2 naming why.
#pragma once
#include <string>

namespace hympi::bench {

// Before MPI_Init: finds "--baseline X" / "--baseline=X" in argv (the parser
// checks X later) and sets or clears the variables above.
void apply_baseline_environment(int argc, char** argv);

// After MPI_Init, once (MPI_T can be initialised once per process in some MPIs):
// throws hympi::Error(invalid_argument) when `baseline` is "hierarchical" and this
// MPI has no such algorithms (same verdict on every rank); else returns the MPI's
// values of those variables, "coll_han_priority=100" or
// "MPIR_CVAR_DEVICE_COLLECTIVES=1;..." (MPICH 4.0 gives enum codes, not names), ""
// when it has none of them.
std::string check_baseline(const std::string& baseline);

}  // namespace hympi::bench
