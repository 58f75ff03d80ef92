// The measurements behind model=measured of groups=auto: HSUMMA's broadcasts
// timed on the communicators the engine itself would build, and the DGEMM rate
// of its panel update at candidate panel widths. Collective; a few broadcasts
// per group shape, so the drop-in caches the results (tuning file).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "hympi/hsumma/cost_model.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/summa/element.hpp"

namespace hympi::hsumma {

struct LineProbe {
  int P = 1, Q = 1;                     // the grid of comm, row-major
  std::int64_t a_rows = 0, b_cols = 0;  // local rows of an A panel (m/P), columns of a B panel (n/Q)
  std::int64_t narrow = 0, wide = 0;    // the two panel widths timed (the line through them is fitted)
  int reps = 2;                         // timed broadcasts per point after one warm-up (the fastest counts)
  EngineOptions engine;                 // policy, sync, node layout: as the multiply will run
};

// For each group shape (I | P, J | Q), the four broadcast kinds of HSUMMA timed
// with the lines of a kind broadcasting at once as in a step of the multiply
// (every inner line; the outer lines of one column / row in each group), the
// slowest rank's time of the fastest repetition, each fitted to a Line. The
// same values on every rank.
std::vector<model::MeasuredShape> probe_lines(MPI_Comm comm, const LineProbe& probe,
                                              const std::vector<std::pair<int, int>>& shapes);

// The GEMM rate of the rank-w panel update C += A(rows x w) B(w x cols) of
// element type e for each width (rows and cols capped at 1024 to keep it
// short), measured on rank 0 of comm and agreed by all. Counted as 2 flops per
// multiply-add of elements, as the cost model counts them.
std::vector<model::BlockRate> probe_block_rates(MPI_Comm comm, std::int64_t rows, std::int64_t cols,
                                                const std::vector<std::int64_t>& widths,
                                                const summa::Element& e = summa::element<double>());

}  // namespace hympi::hsumma
