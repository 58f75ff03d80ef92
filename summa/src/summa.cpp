#include "hympi/summa/summa.hpp"

namespace hympi::summa {

TwoLevelShape summa_shape(int P, int Q, GridOrder order) {
  return {P, Q, 1, 1, order, false};
}

hsumma::EngineOptions summa_engine_options(const SummaOptions& options) {
  hsumma::EngineOptions e;
  e.m = options.m;
  e.n = options.n;
  e.k = options.k;
  e.b = options.b;
  e.M = options.b;  // one group: the outer level is empty, its block size is irrelevant
  e.bcast = options.bcast;
  e.layout = options.layout;
  e.lookahead = options.lookahead;
  e.share_inputs = options.share_inputs;
  return e;
}

std::unique_ptr<hsumma::Engine> make_summa(MPI_Comm comm, int P, int Q, const SummaOptions& options, GridOrder order) {
  return std::make_unique<hsumma::Engine>(comm, summa_shape(P, Q, order), summa_engine_options(options));
}

}  // namespace hympi::summa
