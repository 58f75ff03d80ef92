#include "app.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "hympi/error.hpp"

namespace hympi::apps {

namespace {
int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

[[noreturn]] void abort_run(const AppInfo& app, const char* what) {
  std::fprintf(stderr, "%s: rank %d: error: %s\n", app.name, world_rank(), what);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, kRunFailed);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}
}  // namespace

void init_mpi(int& argc, char**& argv, const AppInfo& app) {
  bool multiple = false;
  for (int i = 1; app.multiple_flag && i < argc; ++i)
    multiple = multiple || std::strcmp(argv[i], app.multiple_flag) == 0;
  if (!multiple) {
    MPI_Init(&argc, &argv);
    return;
  }
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);  // hympi refuses the option if not granted
}

int parse_command_line(CLI::App& cli, int argc, char** argv) {
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every rank parses the same argv; rank 0 prints help or the error.
    const int printed = world_rank() == 0 ? cli.exit(e) : e.get_exit_code();
    return printed == 0 ? kSuccess : kBadInput;
  }
  return -1;
}

int guarded_run(const AppInfo& app, const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::invalid_argument) abort_run(app, e.what());
    if (world_rank() == 0) std::fprintf(stderr, "%s: error: %s\n", app.name, e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    abort_run(app, e.what());
  }
}

void agree_on_success(MPI_Comm comm, const std::string& error, int root) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  long long length = rank == root ? static_cast<long long>(error.size()) : 0;
  HYMPI_CHECK_MPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, root, comm));
  if (length == 0) return;
  std::string message = rank == root ? error : std::string(static_cast<std::size_t>(length), ' ');
  HYMPI_CHECK_MPI(MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, root, comm));
  throw Error(ErrorCode::invalid_argument, message);
}

}  // namespace hympi::apps
