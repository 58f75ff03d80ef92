#include "hympi/hsumma/engine.hpp"

#include <algorithm>
#include <string>

#include "checkerboard_panels.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi::hsumma {

namespace {

constexpr double kOne = 1.0;

int comm_size(MPI_Comm comm) {
  int size = 0;
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size));
  return size;
}

}  // namespace

// A broadcast object only where there is someone to send to.
std::unique_ptr<Bcast> make_panel_bcast(MPI_Comm comm, std::int64_t capacity, const EngineOptions& options,
                                        std::size_t elem_size) {
  if (comm_size(comm) == 1) return nullptr;
  // Pure broadcasts need no node discovery (its collectives are setup cost only).
  const Topology& topo =
      options.bcast.policy == Policy::pure ? Topology::flat(comm) : Topology::of(comm, options.layout);
  CollectiveOptions bcast = options.bcast;
  bcast.overlap = options.lookahead;
  return Bcast::create(topo, std::max<std::int64_t>(1, capacity), elem_size, bcast);
}

void validate(const TwoLevelShape& shape, int size, const EngineOptions& o) {
  require(o.m >= 1 && o.n >= 1 && o.k >= 1, "matrix sizes must be positive (m=" + std::to_string(o.m) +
                                                ", n=" + std::to_string(o.n) + ", k=" + std::to_string(o.k) + ")");
  require(o.b >= 1, "the inner block size b must be >= 1 (b=" + std::to_string(o.b) + ")");
  require(o.M >= o.b, "the inner block size b=" + std::to_string(o.b) +
                          " exceeds the outer block size M=" + std::to_string(o.M) + " (need b <= M)");
  require(o.M % o.b == 0, "the outer block size M=" + std::to_string(o.M) +
                              " must be a multiple of the inner block size b=" + std::to_string(o.b));
  require(o.max_outer_steps >= 0, "max_outer_steps must be >= 0 (got " + std::to_string(o.max_outer_steps) + ")");
  require(shape.P >= 1 && shape.Q >= 1, "the grid must be at least 1x1");
  require(shape.P * shape.Q == size, "the grid " + std::to_string(shape.P) + "x" + std::to_string(shape.Q) + " has " +
                                         std::to_string(shape.P * shape.Q) + " ranks but the communicator has " +
                                         std::to_string(size));
  require(shape.I >= 1 && shape.J >= 1 && shape.P % shape.I == 0 && shape.Q % shape.J == 0,
          "the groups " + std::to_string(shape.I) + "x" + std::to_string(shape.J) + " must divide the grid " +
              std::to_string(shape.P) + "x" + std::to_string(shape.Q));
  shape.validate(size);
}

Engine::Engine(MPI_Comm comm, const TwoLevelShape& shape, const EngineOptions& options)
    : comm_(comm), options_(options) {
  validate(shape, comm_size(comm), options);
  grid_ = std::make_unique<TwoLevelGrid>(comm, shape);
  schedule_ = hsumma_schedule(options.k, shape.P, shape.Q, options.M, options.b);
  if (options.max_outer_steps > 0 && options.max_outer_steps < static_cast<std::int64_t>(schedule_.size()))
    schedule_.resize(static_cast<std::size_t>(options.max_outer_steps));

  panels_ = std::make_unique<CheckerboardPanels>(comm, *grid_, options, a_block(), b_block(), schedule_);
}

Engine::~Engine() = default;

CheckerboardBlocks Engine::blocks() const {
  const auto& s = grid_->shape();
  return checkerboard_blocks(options_.m, options_.n, options_.k, s.P, s.Q, grid_->my_row(), grid_->my_col());
}

LocalBlock Engine::a_block() const {
  return blocks().a;
}

LocalBlock Engine::b_block() const {
  return blocks().b;
}

LocalBlock Engine::c_block() const {
  return blocks().c;
}

std::size_t Engine::panel_bytes_per_node() const {
  return panels_->panel_bytes_per_node();
}

Timings Engine::multiply(const double* A, const double* B, double* C, bool closing_barrier) {
  Timings t;
  const double start = MPI_Wtime(), sync_before = panels_->node_sync_seconds();
  // One clock read per phase change (tiny sizes: a timer per call would cost as much as the work).
  double mark = start;
  auto lap = [&](double& bucket) {
    const double now = MPI_Wtime();
    bucket += now - mark;
    mark = now;
  };
  const LocalBlock c = c_block();
  const summa::LocalC local{C, c.ld(), c.local_rows(), c.local_cols()};
  for (std::int64_t j = 0; j < local.cols; ++j) std::fill(C + j * local.ld, C + j * local.ld + local.rows, 0.0);
  lap(t.dgemm);
  panels_->bind(A, B);
  const summa::PostCounts posts =
      summa::run_steps(*panels_, options_.lookahead ? 1 : 0, summa::element<double>(), &kOne, local,
                       [&](summa::Phase phase) { lap(phase == summa::Phase::updated ? t.dgemm : t.bcast); });
  t.outer_bcasts = posts.outer, t.inner_bcasts = posts.inner;
  lap(t.bcast);
  if (closing_barrier) HYMPI_CHECK_MPI(MPI_Barrier(comm_));
  const double barrier = MPI_Wtime() - mark;
  const double node_sync = panels_->node_sync_seconds() - sync_before;
  t.bcast -= node_sync;
  t.sync = node_sync + barrier;
  t.total = mark + barrier - start;
  return t;
}

}  // namespace hympi::hsumma
