// Correctness checks (and the test matrices they check) for distributed C = A * B, for any
// block-cyclic layout (the engine's block-checkerboard one and PDGEMM's).
// Entries are a pure function of (seed, i, j), so every rank fills its own part
// without communication and a reference can be built anywhere.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hympi/hsumma/distribution.hpp"

namespace hympi::hsumma {

// Uniform in [-1, 1), reproducible from (seed, i, j).
double matrix_entry(std::uint64_t seed, std::int64_t i, std::int64_t j);

// Local part of a matrix in `block` (column-major, leading dimension block.ld()).
std::vector<double> fill_local(const LocalBlock& block, std::uint64_t seed);

// Frobenius norm of a distributed matrix; collective over `comm`.
double frobenius_norm(MPI_Comm comm, const LocalBlock& block, const double* data);

// Norm-wise test ||error|| <= c * eps * k * ||A||_F * ||B||_F.
struct CheckResult {
  double error = 0;  // Frobenius norm of the difference (residual check: 2-norm per ||x||_2)
  double bound = 0;
  bool ok() const { return error <= bound; }
  double ratio() const { return bound > 0 ? error / bound : 0; }
};
constexpr double kCheckFactor = 10.0;  // c in the bound

// C against a serial reference: each rank builds the rows of A and columns of B it
// needs from the generator and runs one plain cblas_dgemm over the full k.
// Cost per rank ~ its share of the product; for small sizes.
CheckResult check_serial(MPI_Comm comm, const LocalBlock& c_block, const double* C, std::int64_t k,
                         std::uint64_t seed_a, std::uint64_t seed_b, double norm_a, double norm_b);

// C against another result in the same layout (e.g. PDGEMM on the same arrays).
CheckResult check_same_layout(MPI_Comm comm, const LocalBlock& c_block, const double* C, const double* C_ref,
                              std::int64_t k, double norm_a, double norm_b);

// Random-vector residual ||C x - A (B x)||_2 <= c * eps * k * ||A||_F ||B||_F ||x||_2;
// O(n^2) work and O(n) communication, usable at any size and layout.
CheckResult check_residual(MPI_Comm comm, const LocalBlock& a_block, const double* A, const LocalBlock& b_block,
                           const double* B, const LocalBlock& c_block, const double* C, double norm_a, double norm_b);

}  // namespace hympi::hsumma
