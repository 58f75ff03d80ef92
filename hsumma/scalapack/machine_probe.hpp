// alpha, beta and the DGEMM rate for groups=auto: from the tuning file when it
// holds them, else measured by a short probe (a few ms) and stored there.
#pragma once
#include <mpi.h>

#include "hympi/hsumma/cost_model.hpp"
#include "hympi/pdgemm_machine.hpp"

namespace hympi::hsumma::scalapack {

// The probe alone, collective over comm: alpha and beta from a ping-pong
// between its ranks 0 and 1 (8 bytes, 1 MiB), gamma from one 256^3 DGEMM on
// rank 0; rank 0's values on every rank. comm needs >= 2 ranks.
model::Machine probe_machine(MPI_Comm comm);

// agreed_machine (the probe or the tuning file, agreed over a communicator): hympi/pdgemm_machine.hpp.

}  // namespace hympi::hsumma::scalapack
