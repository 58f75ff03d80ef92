// The measurement loop of hympi-summa (everything after option parsing).
#pragma once
#include "summa_options.hpp"

namespace hympi::apps {

// Collective over MPI_COMM_WORLD. Returns 0, or 1 when a correctness check fails.
// Throws hympi::Error(invalid_argument) on bad options, identically on every rank.
int run_summa(SummaOptions options);

}  // namespace hympi::apps
