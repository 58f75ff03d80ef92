// Errors: every failure the library detects becomes hympi::Error, whose message
// names the problem. MPI return codes are turned into the same exception.
#pragma once
#include <mpi.h>

#include <stdexcept>
#include <string>

namespace hympi {

enum class ErrorCode : int {
  ok = 0,
  invalid_argument = 1,  // bad count, root, grid, layout, null buffer ...
  mpi_failure = 2,       // an MPI call returned an error
  out_of_memory = 3,     // window too large, /dev/shm too small
  unsupported = 4,       // the MPI cannot do what was asked
  internal = 5,
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

// Throws Error(invalid_argument, "hympi: <message>") when `ok` is false.
void require(bool ok, const std::string& message, ErrorCode code = ErrorCode::invalid_argument);

// Throws Error(mpi_failure) naming the call and MPI's own error string.
void check_mpi(int rc, const char* call);

// A collective validity check: every rank of `comm` learns whether any rank's
// `local_ok` is false and then all of them throw the same error. Use it where a
// bad argument seen on one rank would otherwise leave the others hanging.
void require_all(MPI_Comm comm, bool local_ok, const std::string& message,
                 ErrorCode code = ErrorCode::invalid_argument);

}  // namespace hympi

#define HYMPI_CHECK_MPI(call) ::hympi::check_mpi((call), #call)
