// The skeleton every hympi app follows: main -> typed options -> run -> record.
//
//   int main(int argc, char** argv) {
//     return hympi::apps::run_app<MyOptions>(argc, argv, {"hympi-x", "What it does."}, add_my_options, run_x);
//   }
//
// run_app owns MPI_Init/MPI_Finalize, the command line (CLI11; --help everywhere)
// and the reporting of errors, so that every app exits the same way:
//
//   0  success (also --help)
//   1  the run finished but a correctness check or validation failed (the app's
//      `run` returns kCheckFailed after printing what failed)
//   2  bad usage or input: an unknown or invalid option, an unreadable data file, a
//      node layout that does not fit, a CSV file with other columns. Every rank
//      reaches the same verdict; rank 0 prints one line "<app>: error: <message>"
//      and every rank exits 2 after MPI_Finalize (nothing half-run, no abort).
//   3  a failure during the run (an MPI error, out of memory, a numerical
//      breakdown) that may hit some ranks only: each failing rank prints
//      "<app>: rank N: error: <message>" and calls MPI_Abort(3), so no rank hangs.
//
// What counts as bad input: a hympi::Error with ErrorCode::invalid_argument thrown
// out of `run`. Throw one only where every rank reaches the same verdict (before any
// communication, after hympi::require_all, or after broadcasting the verdict:
// see agree_on_success); any other exception is exit 3.
#pragma once
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace hympi::apps {

enum ExitCode : int { kSuccess = 0, kCheckFailed = 1, kBadInput = 2, kRunFailed = 3 };

struct AppInfo {
  const char* name;         // "hympi-summa": prefix of every error line
  const char* description;  // first paragraph of --help
  // An option that needs MPI_THREAD_MULTIPLE ("--progress-thread"): MPI is
  // initialised with MPI_Init_thread only when the command line has it, so the
  // other runs keep the MPI's cheaper single-threaded paths.
  const char* multiple_flag = nullptr;
};

// MPI_Init, or MPI_Init_thread(MPI_THREAD_MULTIPLE) when argv has app.multiple_flag.
void init_mpi(int& argc, char**& argv, const AppInfo& app);

// Runs `body` and turns its exceptions into the exit codes above. `body` returns
// kSuccess or kCheckFailed. Collective over MPI_COMM_WORLD (MPI is initialised).
int guarded_run(const AppInfo& app, const std::function<int()>& body);

// Parses the command line; returns -1 to go on, else the exit code (0 for --help).
int parse_command_line(CLI::App& cli, int argc, char** argv);

template <class Options>
int run_app(int argc, char** argv, const AppInfo& app, void (*add_options)(CLI::App&, Options&), int (*run)(Options&)) {
  init_mpi(argc, argv, app);
  int rc = 0;
  {
    CLI::App cli{app.description, app.name};
    Options options;
    add_options(cli, options);
    rc = parse_command_line(cli, argc, argv);
    if (rc < 0) rc = guarded_run(app, [&] { return run(options); });
  }
  MPI_Finalize();
  return rc;
}

// Rank `root` did something only it can do (open a file, read input): every rank
// of `comm` learns its verdict; with `error` non-empty on the root, all of them
// throw hympi::Error(invalid_argument, error) (exit 2, printed once).
void agree_on_success(MPI_Comm comm, const std::string& error, int root = 0);

}  // namespace hympi::apps
