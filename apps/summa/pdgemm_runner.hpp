// ScaLAPACK PDGEMM on the same process grid as the engine. nb = 0 uses the
// engine's block-checkerboard distribution (block sizes ceil(dim / grid dim)), so
// PDGEMM runs on the very same local arrays; nb > 0 is the usual square
// block-cyclic distribution with nb x nb blocks.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "hympi/grid.hpp"
#include "hympi/hsumma/distribution.hpp"

namespace hympi::apps {

class PdgemmRunner {
 public:
  // Collective over `comm`; the BLACS grid maps grid position (row, col) to
  // shape.rank_of(row, col), exactly like the engine's grid.
  PdgemmRunner(MPI_Comm comm, const TwoLevelShape& shape, std::int64_t m, std::int64_t n, std::int64_t k,
               std::int64_t nb);
  ~PdgemmRunner();
  PdgemmRunner(const PdgemmRunner&) = delete;
  PdgemmRunner& operator=(const PdgemmRunner&) = delete;

  hsumma::LocalBlock a_block() const { return a_; }
  hsumma::LocalBlock b_block() const { return b_; }
  hsumma::LocalBlock c_block() const { return c_; }

  // C = A * B; returns this rank's seconds (a closing barrier included).
  double multiply(const double* A, const double* B, double* C);

 private:
  MPI_Comm comm_;
  int handle_ = -1, context_ = -1;
  int m_, n_, k_;
  hsumma::LocalBlock a_, b_, c_;
  int desc_a_[9], desc_b_[9], desc_c_[9];
};

}  // namespace hympi::apps
