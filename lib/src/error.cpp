#include "hympi/error.hpp"

namespace hympi {

void require(bool ok, const std::string& message, ErrorCode code) {
  if (!ok) throw Error(code, "hympi: " + message);
}

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw Error(ErrorCode::mpi_failure, std::string("hympi: ") + call + " failed: " + text);
}

void require_all(MPI_Comm comm, bool local_ok, const std::string& message, ErrorCode code) {
  int ok = local_ok ? 1 : 0;
  int all_ok = 0;
  HYMPI_CHECK_MPI(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm));
  if (!all_ok) throw Error(code, "hympi: " + message);
}

}  // namespace hympi
