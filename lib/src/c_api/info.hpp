// Internal: the MPI_Info keys of the persistent C API (hympi.h lists them).
#pragma once
#include <mpi.h>

#include "hympi/collectives.hpp"

namespace hympi::c_api {

// Options from `info` (MPI_INFO_NULL: defaults). Unknown keys are ignored; a
// known key with a bad value throws hympi::Error naming `call`, key and value.
CollectiveOptions options_from_info(MPI_Info info, const char* call);

}  // namespace hympi::c_api
