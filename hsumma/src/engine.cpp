#include "hympi/hsumma/engine.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "shared_inputs.hpp"

namespace hympi::hsumma {

namespace {

int comm_size(MPI_Comm comm) {
  int size = 0;
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size));
  return size;
}

// A broadcast object only where there is someone to send to.
std::unique_ptr<Bcast> make_bcast(MPI_Comm comm, std::int64_t capacity, const EngineOptions& options) {
  if (comm_size(comm) == 1) return nullptr;
  // Pure broadcasts need no node discovery (its collectives are setup cost only).
  const Topology& topo =
      options.bcast.policy == Policy::pure ? Topology::flat(comm) : Topology::of(comm, options.layout);
  CollectiveOptions bcast = options.bcast;
  bcast.overlap = options.lookahead;
  return Bcast::create(topo, std::max<std::int64_t>(1, capacity), sizeof(double), bcast);
}

// Copies rows x cols of a column-major matrix (leading dimension ld) into a packed one.
void pack(const double* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, double* dst) {
  for (std::int64_t j = 0; j < cols; ++j) std::memcpy(dst + j * rows, src + j * ld, sizeof(double) * rows);
}

// The root's panel: sent straight from `src` when it is contiguous (pure: no copy
// at all), else packed into the broadcast buffer (returns null then).
const double* stage(Bcast& bc, const double* src, std::int64_t ld, std::int64_t rows, std::int64_t cols) {
  if (ld == rows || cols == 1) return src;
  pack(src, ld, rows, cols, bc.buffer_as<double>());
  return nullptr;
}

}  // namespace

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

  const LocalBlock a = a_block(), b = b_block();
  lm_ = a.local_rows();
  ln_ = b.local_cols();
  a_cols_ = a.cols;
  b_rows_ = b.rows;
  a_first_ = a.cols.first(a.col_proc);
  b_first_ = b.rows.first(b.row_proc);
  a_ld_ = a.ld();
  b_ld_ = b.ld();

  if (options.bcast.policy == Policy::hybrid && options.share_inputs) {
    const Topology& topo = Topology::of(comm, options.layout);
    auto on_my_node = [&](int row, int col) { return topo.node_of(shape.rank_of(row, col)) == topo.node_index(); };
    // A line of one rank reads in place anyway: sharing only pays with neighbours.
    a_direct_ = shape.Q > 1;
    b_direct_ = shape.P > 1;
    for (int c = 0; c < shape.Q; ++c) a_direct_ = a_direct_ && on_my_node(grid_->my_row(), c);
    for (int r = 0; r < shape.P; ++r) b_direct_ = b_direct_ && on_my_node(r, grid_->my_col());
    int mine = a_direct_ || b_direct_, any = 0;
    HYMPI_CHECK_MPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, comm));
    if (any)
      shared_ = std::make_unique<SharedInputs>(topo, options.bcast.sync, a_direct_ ? a.elements() : 0,
                                               b_direct_ ? b.elements() : 0);
  }

  // Widest panels: M (outer) and b (inner), never more than k.
  const std::int64_t M = std::min(options.M, options.k), bw = std::min(options.b, options.k);
  if (!a_direct_) {
    outer_row_ = make_bcast(grid_->outer_row_comm(), lm_ * M, options);
    inner_row_ = make_bcast(grid_->inner_row_comm(), lm_ * bw, options);
  }
  if (!b_direct_) {
    outer_col_ = make_bcast(grid_->outer_col_comm(), M * ln_, options);
    inner_col_ = make_bcast(grid_->inner_col_comm(), bw * ln_, options);
  }
}

Engine::~Engine() = default;

LocalBlock Engine::a_block() const {
  const auto& s = grid_->shape();
  return {BlockCyclic1D::block(options_.m, s.P), BlockCyclic1D::block(options_.k, s.Q), grid_->my_row(),
          grid_->my_col()};
}

LocalBlock Engine::b_block() const {
  const auto& s = grid_->shape();
  return {BlockCyclic1D::block(options_.k, s.P), BlockCyclic1D::block(options_.n, s.Q), grid_->my_row(),
          grid_->my_col()};
}

LocalBlock Engine::c_block() const {
  const auto& s = grid_->shape();
  return {BlockCyclic1D::block(options_.m, s.P), BlockCyclic1D::block(options_.n, s.Q), grid_->my_row(),
          grid_->my_col()};
}

std::size_t Engine::panel_bytes_per_node() const {
  std::size_t bytes = 0;
  for (const auto* bc : {&outer_row_, &outer_col_, &inner_row_, &inner_col_})
    if (*bc) bytes += (*bc)->bytes_per_node();
  return bytes;
}

double Engine::node_sync_seconds() const {
  double seconds = shared_ ? shared_->node_sync_seconds() : 0;
  for (const auto* bc : {&outer_row_, &outer_col_, &inner_row_, &inner_col_})
    if (*bc) seconds += (*bc)->node_sync_seconds();
  return seconds;
}

// Broadcasts the root's panel (`direct`, or packed into bc.buffer()): started only, with lookahead.
Engine::Pending Engine::broadcast(Bcast& bc, int root, std::int64_t count, std::int64_t ld, const double* direct) {
  if (options_.lookahead) {
    bc.start(root, count, direct);
    return {&bc, {nullptr, ld}};
  }
  bc.run(root, count, direct);
  return {nullptr, {bc.result_as<double>(), ld}};
}

Engine::Panel Engine::finish(Pending& pending) {
  if (pending.bcast) {
    pending.bcast->wait();
    pending.panel.data = pending.bcast->result_as<double>();
    pending.bcast = nullptr;
  }
  return pending.panel;
}

// The outer A panel: columns [k0, k1) of A on my grid row, held by the ranks whose
// column-in-group matches the owner's (others get an empty panel).
Engine::Pending Engine::outer_a(const PanelStep& step, const double* A) {
  if (a_direct_) {  // from the owner's published block, whoever I am
    const double* block = shared_->a(grid_->shape().rank_of(grid_->my_row(), step.a_col));
    return {nullptr, {block + (step.k0 - a_cols_.first(step.a_col)) * a_ld_, a_ld_}};
  }
  const int gc = grid_->shape().group_cols();
  const int owner_group = step.a_col / gc, owner_in_group = step.a_col % gc;
  if (grid_->col_in_group() != owner_in_group) return {};
  const bool mine = grid_->my_col() == step.a_col;
  const double* local = mine && A ? A + (step.k0 - a_first_) * a_ld_ : nullptr;
  if (!outer_row_) return {nullptr, {local, a_ld_}};
  const std::int64_t count = lm_ * step.width();
  if (count == 0) return {nullptr, {nullptr, 1}};
  const double* direct = mine ? stage(*outer_row_, local, a_ld_, lm_, step.width()) : nullptr;
  ++t_->outer_bcasts;
  return broadcast(*outer_row_, owner_group, count, lm_, direct);
}

Engine::Pending Engine::outer_b(const PanelStep& step, const double* B) {
  if (b_direct_) {
    const double* block = shared_->b(grid_->shape().rank_of(step.b_row, grid_->my_col()));
    const std::int64_t owner_ld = std::max<std::int64_t>(1, b_rows_.local_size(step.b_row));
    return {nullptr, {block + (step.k0 - b_rows_.first(step.b_row)), owner_ld}};
  }
  const int gr = grid_->shape().group_rows();
  const int owner_group = step.b_row / gr, owner_in_group = step.b_row % gr;
  if (grid_->row_in_group() != owner_in_group) return {};
  const bool mine = grid_->my_row() == step.b_row;
  const double* local = mine && B ? B + (step.k0 - b_first_) : nullptr;
  if (!outer_col_) return {nullptr, {local, b_ld_}};
  const std::int64_t count = step.width() * ln_;
  if (count == 0) return {nullptr, {nullptr, 1}};
  const double* direct = mine ? stage(*outer_col_, local, b_ld_, step.width(), ln_) : nullptr;
  ++t_->outer_bcasts;
  return broadcast(*outer_col_, owner_group, count, step.width(), direct);
}

Engine::Pending Engine::inner_a(const PanelStep& outer, const PanelStep& step, Panel a) {
  if (a_direct_) return {nullptr, {a.data + (step.k0 - outer.k0) * a.ld, a.ld}};
  const int owner = outer.a_col % grid_->shape().group_cols();
  const bool root = grid_->col_in_group() == owner;
  const double* sub = root && a.data ? a.data + (step.k0 - outer.k0) * a.ld : nullptr;
  if (!inner_row_) return {nullptr, {sub, a.ld}};
  const std::int64_t count = lm_ * step.width();
  if (count == 0) return {nullptr, {nullptr, 1}};
  const double* direct = root ? stage(*inner_row_, sub, a.ld, lm_, step.width()) : nullptr;
  ++t_->inner_bcasts;
  return broadcast(*inner_row_, owner, count, lm_, direct);
}

Engine::Pending Engine::inner_b(const PanelStep& outer, const PanelStep& step, Panel b) {
  if (b_direct_) return {nullptr, {b.data + (step.k0 - outer.k0), b.ld}};
  const int owner = outer.b_row % grid_->shape().group_rows();
  const bool root = grid_->row_in_group() == owner;
  const double* sub = root && b.data ? b.data + (step.k0 - outer.k0) : nullptr;
  if (!inner_col_) return {nullptr, {sub, b.ld}};
  const std::int64_t count = step.width() * ln_;
  if (count == 0) return {nullptr, {nullptr, 1}};
  const double* direct = root ? stage(*inner_col_, sub, b.ld, step.width(), ln_) : nullptr;
  ++t_->inner_bcasts;
  return broadcast(*inner_col_, owner, count, step.width(), direct);
}

void Engine::update(Panel a, Panel b, std::int64_t width, double* C, std::int64_t c_ld) {
  if (lm_ == 0 || ln_ == 0) return;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(lm_), static_cast<int>(ln_),
              static_cast<int>(width), 1.0, a.data, static_cast<int>(a.ld), b.data, static_cast<int>(b.ld), 1.0, C,
              static_cast<int>(c_ld));
}

// Without lookahead: per outer step, its panels; per inner step, its panels then
// the update. With lookahead the same broadcasts are issued one step earlier:
// update i runs while the panels of i+1 fly, and outer step o+1's panels fly
// during outer step o. Result validity (Bcast::start): a panel is read at most
// until its own object's second start() after it.
Timings Engine::multiply(const double* A, const double* B, double* C, bool closing_barrier) {
  Timings t;
  t_ = &t;
  const double start = MPI_Wtime(), sync_before = node_sync_seconds();
  // One clock read per phase change (tiny sizes: a timer per call would cost as much as the work).
  double mark = start;
  auto lap = [&](double& bucket) {
    const double now = MPI_Wtime();
    bucket += now - mark;
    mark = now;
  };
  const LocalBlock c = c_block();
  const std::int64_t c_ld = c.ld();
  for (std::int64_t j = 0; j < ln_; ++j) std::fill(C + j * c_ld, C + j * c_ld + lm_, 0.0);
  lap(t.dgemm);
  if (shared_) shared_->publish(A, B);

  const bool ahead = options_.lookahead;
  const std::size_t outers = schedule_.size();
  Panel a_outer{}, b_outer{}, a_next{}, b_next{};  // outer panels of this and the next outer step
  Pending fly_a_outer, fly_b_outer;                // the next outer step's panels (lookahead)
  Pending fly_a, fly_b;                            // the next update's inner panels
  for (std::size_t o = 0; o < outers; ++o) {
    const OuterStep& outer = schedule_[o];
    if (!ahead || o == 0) {
      Pending pa = outer_a(outer.panel, A), pb = outer_b(outer.panel, B);
      a_outer = finish(pa);
      b_outer = finish(pb);
    } else {
      a_outer = a_next, b_outer = b_next;
    }
    if (ahead && o == 0) {
      fly_a = inner_a(outer.panel, outer.inner[0], a_outer);
      fly_b = inner_b(outer.panel, outer.inner[0], b_outer);
    }
    if (ahead && o + 1 < outers) {
      fly_a_outer = outer_a(schedule_[o + 1].panel, A);
      fly_b_outer = outer_b(schedule_[o + 1].panel, B);
    }
    for (std::size_t s = 0; s < outer.inner.size(); ++s) {
      const PanelStep& step = outer.inner[s];
      if (!ahead) {
        fly_a = inner_a(outer.panel, step, a_outer);
        fly_b = inner_b(outer.panel, step, b_outer);
      }
      const Panel a = finish(fly_a), b = finish(fly_b);
      if (ahead && s + 1 < outer.inner.size()) {
        fly_a = inner_a(outer.panel, outer.inner[s + 1], a_outer);
        fly_b = inner_b(outer.panel, outer.inner[s + 1], b_outer);
      } else if (ahead && o + 1 < outers) {
        const OuterStep& next = schedule_[o + 1];
        a_next = finish(fly_a_outer);
        b_next = finish(fly_b_outer);
        fly_a = inner_a(next.panel, next.inner[0], a_next);
        fly_b = inner_b(next.panel, next.inner[0], b_next);
      }
      lap(t.bcast);
      update(a, b, step.width(), C, c_ld);
      lap(t.dgemm);
    }
  }
  lap(t.bcast);
  if (closing_barrier) HYMPI_CHECK_MPI(MPI_Barrier(comm_));
  const double barrier = MPI_Wtime() - mark;
  const double node_sync = node_sync_seconds() - sync_before;
  t.bcast -= node_sync;
  t.sync = node_sync + barrier;
  t.total = mark + barrier - start;
  t_ = nullptr;
  return t;
}

}  // namespace hympi::hsumma
