// The machine groups=auto's formula models see (alpha, beta, the DGEMM rate) and
// the file it is cached in: what a tool showing the drop-in's choice needs
// (apps/pdgemm_auto). C++, over the cost model's types; not installed.
#pragma once
#include <mpi.h>

#include <string>

#include "hympi/hsumma/cost_model.hpp"

namespace hympi::hsumma::scalapack {

// The same Machine on every rank of comm (rank 0 decides): remembered by this
// process, else read from tuning_file_path(), else probed and written there
// (an unwritable file warns once per process and the run goes on). Collective.
model::Machine agreed_machine(MPI_Comm comm);

// HYMPI_TUNING_FILE, else $XDG_CACHE_HOME/hympi/tuning-<host>.txt, else
// $HOME/.cache/hympi/tuning-<host>.txt; "" when none of them is set.
std::string tuning_file_path();

}  // namespace hympi::hsumma::scalapack
