#include "hympi/hsumma/engine.hpp"

#include <cblas.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <string>
#include <utility>

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

// A broadcast object only where there is someone to send to.
std::unique_ptr<Bcast> make_panel_bcast(MPI_Comm comm, std::int64_t capacity, const EngineOptions& options) {
  if (comm_size(comm) == 1) return nullptr;
  // Pure broadcasts need no node discovery (its collectives are setup cost only).
  const Topology& topo =
      options.bcast.policy == Policy::pure ? Topology::flat(comm) : Topology::of(comm, options.layout);
  CollectiveOptions bcast = options.bcast;
  bcast.overlap = options.lookahead;
  return Bcast::create(topo, std::max<std::int64_t>(1, capacity), sizeof(double), bcast);
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

  const LocalBlock a = a_block(), b = b_block();
  Side& sa = side_[kA];
  Side& sb = side_[kB];
  sa.k_along_cols = true, sb.k_along_cols = false;
  sa.k_split = a.cols, sb.k_split = b.rows;
  sa.first = a.cols.first(a.col_proc), sb.first = b.rows.first(b.row_proc);
  sa.ld = a.ld(), sb.ld = b.ld();
  sa.across = a.local_rows(), sb.across = b.local_cols();

  if (options.bcast.policy == Policy::hybrid && options.share_inputs) {
    const Topology& topo = Topology::of(comm, options.layout);
    auto on_my_node = [&](int row, int col) { return topo.node_of(shape.rank_of(row, col)) == topo.node_index(); };
    // A line of one rank reads in place anyway: sharing only pays with neighbours.
    sa.direct = shape.Q > 1;
    sb.direct = shape.P > 1;
    for (int c = 0; c < shape.Q; ++c) sa.direct = sa.direct && on_my_node(grid_->my_row(), c);
    for (int r = 0; r < shape.P; ++r) sb.direct = sb.direct && on_my_node(r, grid_->my_col());
    int mine = sa.direct || sb.direct, any = 0;
    HYMPI_CHECK_MPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, comm));
    if (any)
      shared_ = std::make_unique<SharedInputs>(topo, options.bcast.sync, sa.direct ? a.elements() : 0,
                                               sb.direct ? b.elements() : 0);
  }

  // Widest panels: M (outer) and b (inner), never more than k.
  const std::int64_t M = std::min(options.M, options.k), bw = std::min(options.b, options.k);
  if (!sa.direct) {
    sa.outer = make_panel_bcast(grid_->outer_row_comm(), sa.across * M, options);
    sa.inner = make_panel_bcast(grid_->inner_row_comm(), sa.across * bw, options);
  }
  if (!sb.direct) {
    sb.outer = make_panel_bcast(grid_->outer_col_comm(), M * sb.across, options);
    sb.inner = make_panel_bcast(grid_->inner_col_comm(), bw * sb.across, options);
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

template <class F>
void Engine::for_each_bcast(F f) const {
  for (const Side& side : side_)
    for (const auto* bc : {&side.outer, &side.inner})
      if (*bc) f(**bc);
}

std::size_t Engine::panel_bytes_per_node() const {
  std::size_t bytes = 0;
  for_each_bcast([&](const Bcast& bc) { bytes += bc.bytes_per_node(); });
  return bytes;
}

double Engine::node_sync_seconds() const {
  double seconds = shared_ ? shared_->node_sync_seconds() : 0;
  for_each_bcast([&](const Bcast& bc) { seconds += bc.node_sync_seconds(); });
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

int Engine::owner(Operand op, const PanelStep& step) const {
  return op == kA ? step.a_col : step.b_row;
}
int Engine::my_position(Operand op) const {
  return op == kA ? grid_->my_col() : grid_->my_row();
}
int Engine::group_extent(Operand op) const {
  return op == kA ? grid_->shape().group_cols() : grid_->shape().group_rows();
}
int Engine::my_position_in_group(Operand op) const {
  return op == kA ? grid_->col_in_group() : grid_->row_in_group();
}

// Sends a panel `width` wide along k from `local` (the root's, leading dimension
// ld) over `bc`; a line of one rank (no bc) reads it in place.
Engine::Pending Engine::send(Operand op, Bcast* bc, int root, bool is_root, const double* local, std::int64_t ld,
                             std::int64_t width, std::int64_t& counter) {
  if (!bc) return {nullptr, {local, ld}};
  const Side& side = side_[op];
  const std::int64_t count = side.across * width;
  if (count == 0) return {nullptr, {nullptr, 1}};
  const std::int64_t rows = side.k_along_cols ? side.across : width, cols = side.k_along_cols ? width : side.across;
  const double* direct = is_root ? stage(*bc, local, ld, rows, cols) : nullptr;
  ++counter;
  return broadcast(*bc, root, count, side.packed_ld(width), direct);
}

// The outer panel of A (B): k indices [k0, k1) on my grid row (column), held by the
// ranks whose position in their group matches the owner's (others get an empty panel).
Engine::Pending Engine::outer_panel(Operand op, const PanelStep& step, const double* block) {
  const Side& side = side_[op];
  const int own = owner(op, step);
  if (side.direct) {  // from the owner's published block, whoever I am
    const auto& shape = grid_->shape();
    const int rank = op == kA ? shape.rank_of(grid_->my_row(), own) : shape.rank_of(own, grid_->my_col());
    const double* published = op == kA ? shared_->a(rank) : shared_->b(rank);
    const std::int64_t ld = side.k_along_cols ? side.ld : std::max<std::int64_t>(1, side.k_split.local_size(own));
    return {nullptr, {published + side.k_offset(step.k0 - side.k_split.first(own), ld), ld}};
  }
  const int extent = group_extent(op);
  if (my_position_in_group(op) != own % extent) return {};
  const bool mine = my_position(op) == own;
  const double* local = mine && block ? block + side.k_offset(step.k0 - side.first, side.ld) : nullptr;
  return send(op, side.outer.get(), own / extent, mine, local, side.ld, step.width(), t_->outer_bcasts);
}

// The inner panel of A (B): k indices [k0, k1) of the outer panel, sent inside the group.
Engine::Pending Engine::inner_panel(Operand op, const PanelStep& outer, const PanelStep& step, Panel panel) {
  const Side& side = side_[op];
  const std::int64_t offset = side.k_offset(step.k0 - outer.k0, panel.ld);
  if (side.direct) return {nullptr, {panel.data + offset, panel.ld}};
  const int root = owner(op, outer) % group_extent(op);
  const bool is_root = my_position_in_group(op) == root;
  const double* sub = is_root && panel.data ? panel.data + offset : nullptr;
  return send(op, side.inner.get(), root, is_root, sub, panel.ld, step.width(), t_->inner_bcasts);
}

void Engine::update(Panel a, Panel b, std::int64_t width, double* C, std::int64_t c_ld) {
  const std::int64_t lm = side_[kA].across, ln = side_[kB].across;
  if (lm == 0 || ln == 0) return;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(lm), static_cast<int>(ln),
              static_cast<int>(width), 1.0, a.data, static_cast<int>(a.ld), b.data, static_cast<int>(b.ld), 1.0, C,
              static_cast<int>(c_ld));
}

// The panels of one multiply in flight, as one pipeline over the updates (outer
// step o, inner step s) in schedule order. Its depth is the lookahead: update u's
// panels are finished, then those of update u + depth are issued, then u's dgemm
// runs. Depth 0 issues and finishes each update's panels in turn; depth 1 lets the
// next update's panels fly during the current dgemm, and issues outer step o+1's
// panels when outer step o begins so they fly during all of it. The order of the
// broadcasts on each communicator is the same at every depth, and so is the
// arithmetic: results are bit-identical. Result validity (Bcast::start): a panel is
// read at most until its own object's second start() after it.
class Engine::Pipeline {
 public:
  Pipeline(Engine& e, const double* A, const double* B) : e_(e), A_(A), B_(B), depth_(e.options_.lookahead ? 1 : 0) {
    for (std::size_t o = 0; o < e.schedule_.size(); ++o)
      for (std::size_t s = 0; s < e.schedule_[o].inner.size(); ++s) updates_.push_back({o, s});
  }
  std::size_t size() const { return updates_.size(); }
  std::int64_t width(std::size_t u) const { return step(u).width(); }

  // The A and B panels of update u (called for u = 0, 1, ... in turn).
  std::pair<Panel, Panel> ready(std::size_t u) {
    while (issued_ <= u) issue(issued_++);
    if (updates_[u].s == 0) issue_outer_until(updates_[u].o + depth_);
    auto& flight = inner_.front();
    const Panel a = e_.finish(flight[kA]), b = e_.finish(flight[kB]);
    inner_.pop_front();
    while (issued_ <= u + depth_ && issued_ < updates_.size()) issue(issued_++);
    return {a, b};
  }

 private:
  struct Update {
    std::size_t o, s;
  };
  const OuterStep& outer(std::size_t u) const { return e_.schedule_[updates_[u].o]; }
  const PanelStep& step(std::size_t u) const { return outer(u).inner[updates_[u].s]; }

  void issue_outer_until(std::size_t o) {
    for (; outer_issued_ <= o && outer_issued_ < e_.schedule_.size(); ++outer_issued_) {
      const PanelStep& panel = e_.schedule_[outer_issued_].panel;
      outer_.push_back({e_.outer_panel(kA, panel, A_), e_.outer_panel(kB, panel, B_)});
    }
  }

  // Issues the inner panels of update u; the first of an outer step first makes
  // that step's outer panels current.
  void issue(std::size_t u) {
    if (updates_[u].s == 0) {
      issue_outer_until(updates_[u].o);
      auto& flight = outer_.front();
      current_[kA] = e_.finish(flight[kA]);
      current_[kB] = e_.finish(flight[kB]);
      outer_.pop_front();
    }
    const PanelStep& panel = outer(u).panel;
    inner_.push_back(
        {e_.inner_panel(kA, panel, step(u), current_[kA]), e_.inner_panel(kB, panel, step(u), current_[kB])});
  }

  Engine& e_;
  const double *A_, *B_;
  const std::size_t depth_;
  std::vector<Update> updates_;
  std::size_t issued_ = 0, outer_issued_ = 0;
  std::deque<std::array<Pending, 2>> outer_, inner_;  // issued, not yet finished
  Panel current_[2] = {{nullptr, 0}, {nullptr, 0}};   // the outer panels of the step being cut
};

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
  const std::int64_t c_ld = c.ld(), lm = side_[kA].across, ln = side_[kB].across;
  for (std::int64_t j = 0; j < ln; ++j) std::fill(C + j * c_ld, C + j * c_ld + lm, 0.0);
  lap(t.dgemm);
  if (shared_) shared_->publish(A, B);

  Pipeline panels(*this, A, B);
  for (std::size_t u = 0; u < panels.size(); ++u) {
    const auto [a, b] = panels.ready(u);
    lap(t.bcast);
    update(a, b, panels.width(u), C, c_ld);
    lap(t.dgemm);
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
