// The drop-in pdgemm proper: decides whether hympi can run a call and runs it
// (read_shape: call_shape.hpp; decide and plan: pdgemm_route.hpp; run: pdgemm_call.cpp).
#pragma once
#include <cstdint>

#include "hympi/summa/element.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

// P?GEMM's arguments (ScaLAPACK's meaning, 1-based offsets) of element type
// `elem` (psgemm, pdgemm, pcgemm, pzgemm): alpha and beta point at one element,
// the arrays hold elements of that type.
struct PdgemmCall {
  const summa::Element& elem;
  char transa, transb;
  int m, n, k;
  const void* alpha;
  const void* a;
  int ia, ja;
  const int* desca;
  const void* b;
  int ib, jb;
  const int* descb;
  const void* beta;
  void* c;
  int ic, jc;
  const int* descc;
};

enum class Outcome {
  run,          // hympi ran the call: C updated
  run_direct,   // hympi ran the call on the caller's block-cyclic arrays (block_cyclic_summa.hpp)
  unsupported,  // valid, but not for hympi (the drop-in is off): pass it on
  invalid,      // an argument error (or a rank outside the grid): pass it on, ScaLAPACK reports it
};

// Seconds this rank spent in the calls hympi ran, by phase (per precision:
// index 0..3 = s, d, c, z), for the timing app (hympi_pgemm_phase_seconds).
struct PhaseSeconds {
  double staging = 0;  // moving operands: staging (direct engine), redistribution in and out (checkerboard)
  double scale = 0;    // C := beta * C (direct engine)
  double panels = 0;   // panel packing, broadcasts and waits for them (hybrid node synchronization included)
  double gemm = 0;     // local GEMM updates
  double total = 0;    // the whole call, decision and planning included
};
PhaseSeconds& phase_seconds(char precision);

// Runs the call under settings `s` (equal on every rank of the grid). Every
// rank of the grid returns the same outcome. Throws hympi::Error if something
// fails after the grid committed to running the call.
Outcome run_pdgemm(const PdgemmCall& call, const Settings& s);

}  // namespace hympi::hsumma::scalapack
