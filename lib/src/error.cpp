#include "hympi/error.hpp"

#include <climits>
#include <new>
#include <string>

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

void agree(MPI_Comm comm, const Error* local_error) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  const int mine = local_error ? rank : INT_MAX;
  int first = INT_MAX;
  HYMPI_CHECK_MPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == INT_MAX) return;
  throw_error_of(comm, first, local_error);
}

void throw_error_of(MPI_Comm comm, int first, const Error* local_error) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  // The lowest failing rank's error, word for word, on every rank.
  int header[2] = {0, 0};
  std::string text;
  if (rank == first) {
    text = local_error->what();
    header[0] = static_cast<int>(local_error->code());
    header[1] = static_cast<int>(text.size());
  }
  HYMPI_CHECK_MPI(MPI_Bcast(header, 2, MPI_INT, first, comm));
  text.resize(static_cast<std::size_t>(header[1]));
  HYMPI_CHECK_MPI(MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm));
  throw Error(static_cast<ErrorCode>(header[0]), text);
}

void require_all(MPI_Comm comm, bool local_ok, const std::string& message, ErrorCode code) {
  if (local_ok) return agree(comm, nullptr);
  const Error error(code, "hympi: " + message);
  agree(comm, &error);
}

}  // namespace hympi
