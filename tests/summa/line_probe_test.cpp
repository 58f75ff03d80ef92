// The probe of model=measured (hympi/hsumma/line_probe.hpp) on a real MPI: one
// entry per shape asked for, in order, the same on every rank; a broadcast kind
// with one process per line costs nothing, one with several costs something;
// the schedule factor is a fraction; bad probe parameters are refused; the DGEMM
// rates are positive and agreed. Usage: line_probe_test (any rank count).
#include "hympi/hsumma/line_probe.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "hympi/error.hpp"

namespace model = hympi::hsumma::model;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto check = [&](bool ok, const char* what, int I, int J) {
    if (!ok) std::fprintf(stderr, "FAIL rank %d shape %dx%d: %s\n", rank, I, J, what), ++failures;
  };
  for (int P = 1; P <= size; ++P) {
    if (size % P) continue;
    const int Q = size / P;
    for (const auto policy : {hympi::Policy::pure, hympi::Policy::hybrid}) {
      hympi::hsumma::LineProbe pr;
      pr.P = P, pr.Q = Q, pr.a_rows = 48, pr.b_cols = 40, pr.narrow = 8, pr.wide = 32, pr.reps = 2;
      pr.engine.bcast.policy = policy;
      const auto wanted = model::group_shapes(P, Q);
      const auto shapes = hympi::hsumma::probe_lines(MPI_COMM_WORLD, pr, wanted);
      check(shapes.size() == wanted.size(), "one entry per shape", P, Q);
      for (std::size_t i = 0; i < shapes.size() && i < wanted.size(); ++i) {
        const model::MeasuredShape& s = shapes[i];
        const int I = s.I, J = s.J;
        check(I == wanted[i].first && J == wanted[i].second, "shapes in the order asked", I, J);
        const model::Line* lines[4] = {&s.outer_row, &s.outer_col, &s.inner_row, &s.inner_col};
        const int sizes[4] = {J, I, Q / J, P / I};
        for (int kind = 0; kind < 4; ++kind) {
          const double t = lines[kind]->time(8.0 * 48 * 32);
          check(sizes[kind] > 1 ? t > 0 : t == 0, "a line costs something iff it has >= 2 processes", I, J);
          check(lines[kind]->latency >= 0 && lines[kind]->per_byte >= 0, "no negative line", I, J);
        }
        check(s.schedule > 0 && s.schedule <= 1, "schedule factor in (0, 1]", I, J);
        // Every rank holds rank 0's numbers.
        double v[9] = {s.outer_row.latency,  s.outer_row.per_byte, s.outer_col.latency,
                       s.outer_col.per_byte, s.inner_row.latency,  s.inner_row.per_byte,
                       s.inner_col.latency,  s.inner_col.per_byte, s.schedule};
        double mine[9];
        std::memcpy(mine, v, sizeof v);
        MPI_Bcast(v, 9, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        check(std::memcmp(mine, v, sizeof v) == 0, "the same values on every rank", I, J);
      }
    }
  }
  // Bad parameters: refused with a message, on every rank, and the probe still works after.
  hympi::hsumma::LineProbe bad;
  bad.P = 1, bad.Q = size, bad.a_rows = 4, bad.b_cols = 4, bad.narrow = 8, bad.wide = 8;
  try {
    hympi::hsumma::probe_lines(MPI_COMM_WORLD, bad, {{1, 1}});
    check(false, "narrow == wide accepted", 1, 1);
  } catch (const hympi::Error& e) {
    check(std::strstr(e.what(), "narrow < wide") != nullptr, "the refusal names the widths", 1, 1);
  }
  const auto rates = hympi::hsumma::probe_block_rates(MPI_COMM_WORLD, 64, 64, {16, 32});
  check(rates.size() == 2 && rates[0].b == 16 && rates[1].b == 32 && rates[0].gamma > 0 && rates[1].gamma > 0,
        "DGEMM rates per width", 0, 0);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("line probe: %d ranks: %s\n", size, total ? "FAILED" : "ok");
  MPI_Finalize();
  return total ? 1 : 0;
}
