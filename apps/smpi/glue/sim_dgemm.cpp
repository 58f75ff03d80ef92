// Under SMPI the local update costs simulated time, not host time: cblas_dgemm
// (the engine's only compute call) becomes smpi_execute_flops(2*m*n*k) on the
// simulated host, whose speed the platform file states. This definition lives in
// the executable, so it preempts OpenBLAS's; every other BLAS call stays real.
// HYMPI_SMPI_REAL_DGEMM=1 forwards to the real routine instead (for correctness
// runs: the numbers are then right, and the compute time is whatever
// smpi/simulate-computation makes of it).
//
// DGEMM rate by shape (issue 51): HYMPI_SMPI_DGEMM_TABLE names a CSV of measured rates
// (hympi-dgemm-bench --csv: columns m, n, k, best_gflops; e.g.
// results/dgemm-rate-host.csv). A call of shape (m, n, k) is then charged 2mnk /
// efficiency flops, efficiency = the rate of the table's nearest shape (in log m, log n,
// log k) over the table's best rate: the platform's host speed is the best shape's rate,
// a thin update (k = 32) costs what it costs on the measured BLAS. Unset: every shape at
// the host speed (as before). hympi_smpi_dgemm_flops is the charge, for skeletons too.
#include <cblas.h>
#include <dlfcn.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using DgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, double,
                         const double*, blasint, const double*, blasint, double, double*, blasint);

DgemmFn real_dgemm() {
  static const DgemmFn fn = [] {
    const char* env = std::getenv("HYMPI_SMPI_REAL_DGEMM");
    if (!env || env[0] != '1') return DgemmFn{nullptr};
    return reinterpret_cast<DgemmFn>(dlsym(RTLD_NEXT, "cblas_dgemm"));
  }();
  return fn;
}

struct Rate {
  double lm, ln, lk, gflops;  // logs of the shape, measured rate
};

// The table, read once per rank (globals are per rank under SMPI; the file is small).
// A bad table ends the run: a silently flat model would be wrong evidence.
const std::vector<Rate>& rate_table(double* best) {
  static double best_rate = 0;
  static const std::vector<Rate> table = [] {
    std::vector<Rate> rows;
    const char* path = std::getenv("HYMPI_SMPI_DGEMM_TABLE");
    if (!path || !*path) return rows;
    FILE* f = std::fopen(path, "r");
    if (!f) {
      std::fprintf(stderr, "sim_dgemm: error: cannot read HYMPI_SMPI_DGEMM_TABLE=%s\n", path);
      std::exit(2);
    }
    char line[4096];
    int col_m = -1, col_n = -1, col_k = -1, col_rate = -1;
    bool header = true;
    while (std::fgets(line, sizeof line, f)) {
      std::vector<std::string> fields;
      std::string cur;
      bool quoted = false;
      for (const char* p = line; *p && *p != '\n'; ++p) {  // CSV with quoted fields (the MPI column)
        if (*p == '"') quoted = !quoted;
        else if (*p == ',' && !quoted) fields.push_back(cur), cur.clear();
        else cur += *p;
      }
      fields.push_back(cur);
      if (header) {
        for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
          if (fields[static_cast<std::size_t>(i)] == "m") col_m = i;
          if (fields[static_cast<std::size_t>(i)] == "n") col_n = i;
          if (fields[static_cast<std::size_t>(i)] == "k") col_k = i;
          if (fields[static_cast<std::size_t>(i)] == "best_gflops") col_rate = i;
        }
        header = false;
        continue;
      }
      const int need = std::max(std::max(col_m, col_n), std::max(col_k, col_rate));
      if (col_m < 0 || col_n < 0 || col_k < 0 || col_rate < 0 || static_cast<int>(fields.size()) <= need) break;
      const double m = std::atof(fields[static_cast<std::size_t>(col_m)].c_str());
      const double n = std::atof(fields[static_cast<std::size_t>(col_n)].c_str());
      const double k = std::atof(fields[static_cast<std::size_t>(col_k)].c_str());
      const double g = std::atof(fields[static_cast<std::size_t>(col_rate)].c_str());
      if (m > 0 && n > 0 && k > 0 && g > 0) rows.push_back({std::log(m), std::log(n), std::log(k), g});
    }
    std::fclose(f);
    if (rows.empty()) {
      std::fprintf(stderr, "sim_dgemm: error: %s has no rows with m, n, k, best_gflops > 0\n", path);
      std::exit(2);
    }
    for (const Rate& r : rows) best_rate = std::max(best_rate, r.gflops);
    return rows;
  }();
  *best = best_rate;
  return table;
}

}  // namespace

extern "C" double hympi_smpi_dgemm_flops(long m, long n, long k) {
  const double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  double best = 0;
  const std::vector<Rate>& table = rate_table(&best);
  if (table.empty() || flops <= 0) return flops;
  const double lm = std::log(static_cast<double>(m)), ln = std::log(static_cast<double>(n)),
               lk = std::log(static_cast<double>(k));
  const Rate* near = &table.front();
  double dist = 1e300;
  for (const Rate& r : table) {
    const double d = (r.lm - lm) * (r.lm - lm) + (r.ln - ln) * (r.ln - ln) + (r.lk - lk) * (r.lk - lk);
    if (d < dist) dist = d, near = &r;
  }
  return flops * best / near->gflops;
}

extern "C" void cblas_dgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n, blasint k,
                            double alpha, const double* a, blasint lda, const double* b, blasint ldb, double beta,
                            double* c, blasint ldc) {
  if (DgemmFn fn = real_dgemm()) {
    fn(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  smpi_execute_flops(hympi_smpi_dgemm_flops(m, n, k));
}
