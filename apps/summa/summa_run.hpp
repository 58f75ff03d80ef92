// The run of hympi-summa (everything after option parsing): every algorithm,
// policy, lookahead and group split asked for, one after the other.
#pragma once
#include "app.hpp"
#include "summa_options.hpp"

namespace hympi::apps {

// Collective over MPI_COMM_WORLD. Returns kSuccess, or kCheckFailed when a
// correctness check fails; throws hympi::Error(invalid_argument) on bad options,
// identically on every rank (app.hpp).
int run_summa(SummaOptions& options);

}  // namespace hympi::apps
