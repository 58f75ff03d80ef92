#include "summa_run.hpp"

#include <cstdio>

#include "hympi/topology.hpp"
#include "run_info.hpp"
#include "summa_report.hpp"
#include "summa_runners.hpp"
#include "summa_setup.hpp"

extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

namespace hympi::apps {

int run_summa(SummaOptions& options) {
  const Setup s = make_setup(options);
  if (openblas_set_num_threads) openblas_set_num_threads(s.o.threads);
  const RunInfo info = gather_run_info(Topology::of(MPI_COMM_WORLD, s.layout));
  const double ref = s.o.reference_dgemm ? reference_dgemm_gflops(s) : 0.0;
  if (s.rank == 0 && ref > 0) std::printf("# single-rank dgemm rate: %.2f GF/s\n", ref);
  Reporter out(s, info, ref);

  bool ok = true;
  for (const auto& alg : s.o.algorithms) {
    if (alg == SummaAlgorithm::pdgemm) {
      for (auto nb : s.o.pdgemm_nb) {
        Variant v{alg};
        v.nb = nb;
        ok = run_pdgemm(s, out, v) && ok;
      }
      continue;
    }
    // SUMMA once; HSUMMA once per group split (one process sweeps G: setup is paid once).
    const bool grouped = alg == SummaAlgorithm::hsumma;
    const std::vector<std::pair<int, int>> splits = grouped ? s.groups : std::vector<std::pair<int, int>>{{1, 1}};
    for (const auto& ij : splits)
      for (Policy policy : s.o.policies)
        for (int ahead : s.o.lookahead)
          ok = run_engine(s, out, {alg, policy, grouped, -1, ahead, ij.first, ij.second}) && ok;
  }
  if (!ok && s.rank == 0) std::fprintf(stderr, "hympi-summa: a correctness check FAILED\n");
  return ok ? kSuccess : kCheckFailed;
}

}  // namespace hympi::apps
