// hympi-summa: SUMMA, HSUMMA (pure or hybrid broadcasts) and ScaLAPACK PDGEMM on
// the same matrices and process grid; per repetition the time (max over ranks),
// GF/s, the broadcast / sync / dgemm split and the efficiency against the
// single-rank DGEMM rate measured in the same run.
#include "app.hpp"
#include "summa_options.hpp"
#include "summa_run.hpp"

int main(int argc, char** argv) {
  const hympi::apps::AppInfo app{
      "hympi-summa",
      "hympi-summa: C = A*B with SUMMA, hierarchical SUMMA (pure or hybrid MPI+MPI panel broadcasts) and "
      "ScaLAPACK PDGEMM on the same matrices and grid"};
  return hympi::apps::run_app<hympi::apps::SummaOptions>(argc, argv, app, hympi::apps::add_summa_options,
                                                         hympi::apps::run_summa);
}
