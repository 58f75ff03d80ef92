// SUMMA's step loop, written once for every data layout. A multiply is a
// sequence of outer steps, each cut into inner steps; every inner step is one
// rank-width update C += alpha * A panel * B panel. SUMMA has one inner step per
// outer step; HSUMMA's outer panels (width M) travel among groups and are cut
// into inner panels (width b) inside every group. A PanelSource says, per layout,
// where a step's panels come from and how they are broadcast; the pipeline
// decides when: lookahead, the order of the broadcasts, the waits.
//
// Lookahead 1: update u's panels are landed, then those of update u + 1 are
// posted, then u's dgemm runs, so the next panels fly during it; and the outer
// panels of step o + 1 are posted when outer step o begins. The broadcasts run in
// the same order on every communicator whatever the depth, and so does the
// arithmetic: results are bit-identical with and without lookahead. A landed
// panel is read at most until its broadcast object's second start() after it
// (Bcast::start with overlap).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/summa/element.hpp"

namespace hympi::summa {

// A panel as the update reads it: column-major with leading dimension ld, of
// the multiply's element type.
struct Panel {
  const void* data = nullptr;
  std::int64_t ld = 1;
};

// A panel that may still be on its way: `bcast` is non-null while it flies;
// `posted` says a broadcast was issued for it (counted by the pipeline).
struct PanelFlight {
  Bcast* bcast = nullptr;
  Panel panel;
  bool posted = false;
};

// Waits for a flight still in the air; returns its panel.
Panel land(PanelFlight& flight);

// The two operands. Their panels are mirror images along k: A's k runs along its
// columns (panels rows x width), B's along its rows (panels width x cols).
enum Operand { kA = 0, kB = 1 };

// Where the panels of one layout come from.
class PanelSource {
 public:
  virtual ~PanelSource() = default;
  virtual std::size_t outer_steps() const = 0;
  virtual std::size_t inner_steps(std::size_t outer) const = 0;
  virtual std::int64_t width(std::size_t outer, std::size_t inner) const = 0;
  // Posts outer step `outer`'s panel of `op` (started only, with lookahead).
  virtual PanelFlight post_outer(Operand op, std::size_t outer) = 0;
  // Posts the panel of inner step `inner`, cut from its outer step's landed panel.
  virtual PanelFlight post_inner(Operand op, std::size_t outer, std::size_t inner, Panel outer_panel) = 0;
};

// This rank's block of C: rows x cols, column-major, leading dimension ld.
struct LocalC {
  void* data;
  std::int64_t ld, rows, cols;
};

// Broadcasts this rank joined during one multiply.
struct PostCounts {
  std::int64_t outer = 0, inner = 0;
};

// Where the step loop is, for a caller timing its phases.
enum class Phase { panels_landed, updated };

// C += alpha * A * B of element type `e` (alpha points at one), the panels from
// `source`, `lookahead` (0 or 1) deep. `mark`, when set, is called after each
// phase. Collective over the source's lines.
PostCounts run_steps(PanelSource& source, int lookahead, const Element& e, const void* alpha, LocalC c,
                     const std::function<void(Phase)>& mark = {});

// The panels of one multiply in flight: run_steps' pipeline, for callers that
// drive the updates themselves. ready(u) is called for u = 0, 1, ... in turn.
class PanelPipeline {
 public:
  PanelPipeline(PanelSource& source, int lookahead);
  std::size_t size() const { return updates_.size(); }
  std::int64_t width(std::size_t u) const;
  std::pair<Panel, Panel> ready(std::size_t u);  // the A and B panels of update u
  const PostCounts& posts() const { return posts_; }

 private:
  struct Update {
    std::size_t outer, inner;
  };
  using Flights = std::array<PanelFlight, 2>;
  void post_outer_until(std::size_t outer);
  void post(std::size_t u);
  Flights counted(Flights flights, std::int64_t& counter);

  PanelSource& source_;
  const std::size_t depth_;
  std::vector<Update> updates_;
  std::size_t posted_ = 0, outer_posted_ = 0;
  std::deque<Flights> outer_, inner_;  // posted, not yet landed
  Panel current_[2];                   // the landed outer panels of the step being cut
  PostCounts posts_;
};

}  // namespace hympi::summa
