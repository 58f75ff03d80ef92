// Errors: every failure the library detects becomes hympi::Error, whose message
// names the problem. MPI return codes are turned into the same exception.
#pragma once
#include <mpi.h>

#include <new>
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
// The same for a literal: checks on every run() must not build a std::string when they pass.
inline void require(bool ok, const char* message, ErrorCode code = ErrorCode::invalid_argument) {
  if (!ok) require(false, std::string(message), code);
}

// Throws Error(mpi_failure) naming the call and MPI's own error string.
void check_mpi(int rc, const char* call);

// Collective agreement on an error: every rank of `comm` passes its own error or
// null; if any rank failed, every rank throws the error of the lowest failing rank
// (same code, same message). One MPI_Allreduce when nothing failed.
void agree(MPI_Comm comm, const Error* local_error);
// The second half of agree(), for callers that found the lowest failing rank `first`
// in a reduction of their own: collective over comm, throws first's error on every rank
// (`local_error` is read on rank first only).
[[noreturn]] void throw_error_of(MPI_Comm comm, int first, const Error* local_error);

// A collective validity check: require() agreed over `comm` (see agree()). Use it
// where a bad argument seen on one rank would otherwise leave the others hanging.
void require_all(MPI_Comm comm, bool local_ok, const std::string& message,
                 ErrorCode code = ErrorCode::invalid_argument);

// Runs `local_checks` (which may throw hympi::Error or std::bad_alloc) on every
// rank and agrees on the outcome: all ranks return, or all throw the same error.
// Call it before anything is allocated or sent.
template <class F>
void checked_together(MPI_Comm comm, F&& local_checks) {
  try {
    local_checks();
  } catch (const Error& e) {
    agree(comm, &e);
    throw;  // unreachable: agree() throws when an error was passed
  } catch (const std::bad_alloc&) {
    const Error e(ErrorCode::out_of_memory, "hympi: out of memory while checking arguments");
    agree(comm, &e);
    throw;
  }
  agree(comm, nullptr);
}

}  // namespace hympi

#define HYMPI_CHECK_MPI(call) ::hympi::check_mpi((call), #call)
