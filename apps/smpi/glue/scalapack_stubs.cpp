// ScaLAPACK is built against a real MPI and cannot run inside SMPI, so the SMPI
// build of hympi-summa has no PDGEMM baseline: these stand-ins end the run with a
// clear message if --alg pdgemm (or --check pdgemm) is asked for.
#include <cstdio>
#include <cstdlib>

#include "hympi/blacs.h"

namespace {
[[noreturn]] void unavailable() {
  std::fprintf(stderr,
               "hympi-summa (SMPI build): PDGEMM/ScaLAPACK is not available under SimGrid SMPI; "
               "use --alg summa,hsumma and --check none|residual|serial\n");
  std::abort();
}
}  // namespace

extern "C" {
int Csys2blacs_handle(MPI_Comm) {
  unavailable();
}
void Cfree_blacs_system_handle(int) {
  unavailable();
}
void Cblacs_gridmap(int*, int*, int, int, int) {
  unavailable();
}
void Cblacs_gridinfo(int, int*, int*, int*, int*) {
  unavailable();
}
void Cblacs_gridexit(int) {
  unavailable();
}
void descinit_(int*, const int*, const int*, const int*, const int*, const int*, const int*, const int*, const int*,
               int*) {
  unavailable();
}
void pdgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
             const int*, const int*, const double*, const int*, const int*, const int*, const double*, double*,
             const int*, const int*, const int*) {
  unavailable();
}
}
