// SUMMA: the HSUMMA engine with one group (I = J = 1, M = b). Every panel of
// width b goes straight from its owner along the full grid row / column.
#pragma once
#include <mpi.h>

#include "hympi/hsumma/engine.hpp"

namespace hympi::summa {

struct SummaOptions {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t b = 64;
  CollectiveOptions bcast;
  LayoutSpec layout;
  bool lookahead = false;    // overlap the next panel's broadcast with the current update
  bool share_inputs = true;  // hybrid: rows/columns inside a node read panels directly
};

// The two-level shape and engine options SUMMA amounts to.
TwoLevelShape summa_shape(int P, int Q, GridOrder order = GridOrder::row_major);
hsumma::EngineOptions summa_engine_options(const SummaOptions& options);

// Collective over `comm`; throws hympi::Error on bad arguments.
std::unique_ptr<hsumma::Engine> make_summa(MPI_Comm comm, int P, int Q, const SummaOptions& options,
                                           GridOrder order = GridOrder::row_major);

}  // namespace hympi::summa
