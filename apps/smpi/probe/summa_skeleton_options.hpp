// Command line of hympi-smpi-summa-skeleton (summa_skeleton.cpp): parsed and checked
// on every rank alike before any communication, so every rank reaches the same verdict.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hympi::skeleton {

// One multiply of the run: SUMMA (I = J = 1, named "summa") or HSUMMA with I x J groups.
struct Variant {
  bool summa = false;
  int I = 1, J = 1;
  const char* algorithm() const { return summa ? "summa" : "hsumma"; }
};

struct Options {
  std::int64_t n = 8192, b = 256;  // m = n = k; b the inner block (run-sweep.sh's -b)
  std::int64_t M = 0;              // the outer block (between groups), a multiple of b; 0 = b
  int P = 0, Q = 0;                // the grid; 0 = the most square of the ranks
  std::vector<Variant> variants;   // in run order
  std::int64_t steps = 4;          // the first outer panel steps of n/M (0 = all)
  std::string csv;                 // "" = none, "-" = stdout, else a file (overwritten)
  bool help = false;
};

// The usage text (--help).
std::string usage();

// Parses argv and checks the sizes against `ranks`; returns "" or the error message
// (bad option, sizes not dividing the grid, groups not dividing it, ...).
std::string parse_options(int argc, char** argv, int ranks, Options& out);

}  // namespace hympi::skeleton
