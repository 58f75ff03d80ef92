#include "hympi/hsumma/line_probe.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"

namespace hympi::hsumma {

namespace {

constexpr int kKinds = 4;  // outer row, outer column, inner row, inner column
constexpr int kScheduleSteps = 2;

// Seconds of one broadcast of `count` elements on `bc` (none: idle), started together on comm.
double timed_bcast(MPI_Comm comm, Bcast* bc, std::int64_t count) {
  HYMPI_CHECK_MPI(MPI_Barrier(comm));
  const double t0 = MPI_Wtime();
  if (bc) bc->run(0, count);
  return MPI_Wtime() - t0;
}

}  // namespace

std::vector<model::MeasuredShape> probe_lines(MPI_Comm comm, const LineProbe& pr,
                                              const std::vector<std::pair<int, int>>& shapes) {
  require(pr.a_rows >= 1 && pr.b_cols >= 1 && pr.narrow >= 1 && pr.wide > pr.narrow && pr.reps >= 1,
          "line probe: need panel rows, columns >= 1, widths 1 <= narrow < wide and reps >= 1");
  const std::int64_t widths[2] = {pr.narrow, pr.wide};
  std::vector<model::MeasuredShape> out;
  for (const auto& [I, J] : shapes) {
    const TwoLevelGrid grid(comm, TwoLevelShape{pr.P, pr.Q, I, J, GridOrder::row_major, false});
    const MPI_Comm comms[kKinds] = {grid.outer_row_comm(), grid.outer_col_comm(), grid.inner_row_comm(),
                                    grid.inner_col_comm()};
    const int sizes[kKinds] = {J, I, pr.Q / J, pr.P / I};
    const std::int64_t across[kKinds] = {pr.a_rows, pr.b_cols, pr.a_rows, pr.b_cols};  // panel extent but k
    // One broadcast object per kind, for the lines and the schedule step. A line
    // of one process has none (the same verdict on every rank: the shape says
    // so). An outer panel lies in one process column (row) of a group, so only
    // the outer lines of that column-in-group (row-in-group) broadcast at a time.
    std::unique_ptr<Bcast> bcs[kKinds];
    for (int kind = 0; kind < kKinds; ++kind) {
      const bool idle =
          sizes[kind] == 1 || (kind == 0 && grid.col_in_group() != 0) || (kind == 1 && grid.row_in_group() != 0);
      if (!idle) bcs[kind] = make_panel_bcast(comms[kind], across[kind] * pr.wide, pr.engine);
    }
    // times[(kind * 2 + width) * reps + rep]; a line of one process stays 0.
    std::vector<double> times(static_cast<std::size_t>(kKinds) * 2 * pr.reps, 0.0);
    for (int kind = 0; kind < kKinds; ++kind) {
      if (sizes[kind] == 1) continue;
      for (int w = 0; w < 2; ++w)
        for (int rep = -1; rep < pr.reps; ++rep) {
          const double t = timed_bcast(comm, bcs[kind].get(), across[kind] * widths[w]);
          if (rep >= 0) times[(kind * 2 + w) * pr.reps + rep] = t;
        }
    }
    HYMPI_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, times.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_MAX, comm));
    // One outer step of the engine's schedule, back to back (no barrier between
    // the broadcasts: ranks that finish one early start the next, which hides
    // part of their cost on some networks), at the probe's b = narrow, M = wide.
    const std::int64_t inner_steps = pr.wide / pr.narrow;
    HYMPI_CHECK_MPI(MPI_Barrier(comm));
    const double t0 = MPI_Wtime();
    for (int s = 0; s < kScheduleSteps; ++s) {
      for (int kind : {0, 1})
        if (bcs[kind]) bcs[kind]->run(0, across[kind] * pr.wide);
      for (std::int64_t i = 0; i < inner_steps; ++i)
        for (int kind : {2, 3})
          if (bcs[kind]) bcs[kind]->run(0, across[kind] * pr.narrow);
    }
    double step = (MPI_Wtime() - t0) / kScheduleSteps;
    HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &step, 1, MPI_DOUBLE, MPI_MAX, comm));
    model::Line lines[kKinds];  // a line of one process: zero
    for (int kind = 0; kind < kKinds; ++kind) {
      double best[2];
      for (int w = 0; w < 2; ++w) {
        const auto first = times.begin() + (kind * 2 + w) * pr.reps;
        best[w] = *std::min_element(first, first + pr.reps);
      }
      const double bytes = sizeof(double) * static_cast<double>(across[kind]);
      if (sizes[kind] > 1) lines[kind] = model::Line::fit(bytes * widths[0], best[0], bytes * widths[1], best[1]);
    }
    model::MeasuredShape shape{I, J, lines[0], lines[1], lines[2], lines[3], 1.0};
    // What the schedule hides: its step against the sum of the lines alone.
    const auto alone_at = [&](int kind, std::int64_t width) {
      return lines[kind].time(sizeof(double) * static_cast<double>(across[kind] * width));
    };
    const double alone =
        alone_at(0, pr.wide) + alone_at(1, pr.wide) + inner_steps * (alone_at(2, pr.narrow) + alone_at(3, pr.narrow));
    if (alone > 0) shape.schedule = std::clamp(step / alone, 0.05, 1.0);
    out.push_back(shape);
  }
  return out;
}

std::vector<model::BlockRate> probe_block_rates(MPI_Comm comm, std::int64_t rows, std::int64_t cols,
                                                const std::vector<std::int64_t>& widths, const summa::Element& e) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  const int r = static_cast<int>(std::clamp<std::int64_t>(rows, 1, 1024));
  const int c = static_cast<int>(std::clamp<std::int64_t>(cols, 1, 1024));
  std::vector<double> rates(widths.size(), 0.0);
  if (rank == 0) {
    const std::int64_t wmax = widths.empty() ? 1 : *std::max_element(widths.begin(), widths.end());
    // Zeros: the rate of a GEMM does not depend on its (normal) values.
    std::vector<std::byte> a(e.size * static_cast<std::size_t>(r * wmax)),
        b(e.size * static_cast<std::size_t>(wmax * c)), cc(e.size * static_cast<std::size_t>(r) * c);
    for (std::size_t i = 0; i < widths.size(); ++i) {
      const int w = static_cast<int>(widths[i]);
      double best = 1e30;
      for (int rep = 0; rep < 3; ++rep) {  // the first one warms caches and threads
        const double t0 = MPI_Wtime();
        e.gemm(r, c, w, e.one, a.data(), r, b.data(), w, cc.data(), r);
        if (rep > 0) best = std::min(best, MPI_Wtime() - t0);
      }
      rates[i] = 2.0 * r * c * w / std::max(best, 1e-9);
    }
  }
  HYMPI_CHECK_MPI(MPI_Bcast(rates.data(), static_cast<int>(rates.size()), MPI_DOUBLE, 0, comm));
  std::vector<model::BlockRate> out;
  for (std::size_t i = 0; i < widths.size(); ++i) out.push_back({static_cast<double>(widths[i]), rates[i]});
  return out;
}

}  // namespace hympi::hsumma
