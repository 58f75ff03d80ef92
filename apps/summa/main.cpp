// hympi-summa: SUMMA, HSUMMA (pure or hybrid broadcasts) and ScaLAPACK PDGEMM on
// the same matrices and process grid; per repetition the time (max over ranks),
// GF/s, the broadcast / sync / dgemm split and the efficiency against the
// single-rank DGEMM rate measured in the same run.
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "csv_writer.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "run_info.hpp"
#include "summa_options.hpp"
#include "summa_run.hpp"

extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  CLI::App app{
      "hympi-summa: C = A*B with SUMMA, hierarchical SUMMA (pure or hybrid MPI+MPI panel broadcasts) and "
      "ScaLAPACK PDGEMM on the same matrices and grid"};
  hympi::apps::SummaOptions options;
  hympi::apps::add_summa_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = rank == 0 ? app.exit(e) : e.get_exit_code();
    MPI_Finalize();
    return rc;
  }
  if (openblas_set_num_threads) openblas_set_num_threads(options.threads);

  int rc = 0;
  try {
    rc = hympi::apps::run_summa(options);
  } catch (const hympi::Error& e) {
    // Argument errors are found identically on every rank before any communication.
    if (e.code() != hympi::ErrorCode::invalid_argument) {
      std::fprintf(stderr, "hympi-summa: rank %d: error: %s\n", rank, e.what());
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (rank == 0) std::fprintf(stderr, "hympi-summa: error: %s\n", e.what());
    rc = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hympi-summa: rank %d: error: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return rc;
}
