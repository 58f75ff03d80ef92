// The drop-in pdgemm proper: decides whether hympi can run a call and runs it
// (decide: pdgemm_route.hpp, then plan and run: pdgemm_call.cpp).
#pragma once
#include <cstdint>

namespace hympi::hsumma::scalapack {

// PDGEMM's arguments (ScaLAPACK's meaning, 1-based offsets).
struct PdgemmCall {
  char transa, transb;
  int m, n, k;
  double alpha;
  const double* a;
  int ia, ja;
  const int* desca;
  const double* b;
  int ib, jb;
  const int* descb;
  double beta;
  double* c;
  int ic, jc;
  const int* descc;
};

enum class Outcome {
  run,          // hympi ran the call: C updated
  run_direct,   // hympi ran the call on the caller's block-cyclic arrays (block_cyclic_summa.hpp)
  unsupported,  // valid, but not for hympi (the drop-in is off): pass it on
  invalid,      // an argument error (or a rank outside the grid): pass it on, ScaLAPACK reports it
};

// Every rank of the grid returns the same outcome. Throws hympi::Error if
// something fails after the grid committed to running the call.
Outcome run_pdgemm(const PdgemmCall& call);

}  // namespace hympi::hsumma::scalapack
