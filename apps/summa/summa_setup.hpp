// hympi-summa after option parsing: the checked options, the process grid, and the
// shapes and engine options every variant derives from (SUMMA through the summa/
// face; HSUMMA is the same with groups and an outer block M).
#pragma once
#include <utility>
#include <vector>

#include "hympi/grid.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/layout.hpp"
#include "summa_options.hpp"

namespace hympi::apps {

struct Setup {
  SummaOptions o;
  Problem pb;  // the checked problem options: m, n, k, b, M, the grid
  int rank = 0, size = 1;
  int P = 1, Q = 1;  // pb's grid
  std::vector<std::pair<int, int>> groups;  // HSUMMA's I x J, one variant each
  LayoutSpec layout;
  // I x J groups (HSUMMA) or the plain grid (SUMMA, PDGEMM: 1 x 1).
  TwoLevelShape shape(bool grouped, std::pair<int, int> ij = {1, 1}) const;
  hsumma::EngineOptions engine_options(bool grouped, Policy policy, int lookahead = 0) const;
};

// Collective over MPI_COMM_WORLD only to learn rank and size. Checks every option and
// every engine configuration the run will use; throws hympi::Error(invalid_argument)
// naming the problem, identically on every rank, before any communication.
Setup make_setup(SummaOptions options);

// The single-rank DGEMM rate (GF/s) efficiency is measured against; collective.
double reference_dgemm_gflops(const Setup& s);

}  // namespace hympi::apps
