#include "hympi/summa/panel_pipeline.hpp"

#include <algorithm>

namespace hympi::summa {

Panel land(PanelFlight& flight) {
  if (flight.bcast) {
    flight.bcast->wait();
    flight.panel.data = flight.bcast->result_as<std::byte>();
    flight.bcast = nullptr;
  }
  return flight.panel;
}

PanelPipeline::PanelPipeline(PanelSource& source, int lookahead) : source_(source), depth_(lookahead > 0 ? 1 : 0) {
  for (std::size_t o = 0; o < source.outer_steps(); ++o)
    for (std::size_t s = 0; s < source.inner_steps(o); ++s) updates_.push_back({o, s});
}

std::int64_t PanelPipeline::width(std::size_t u) const {
  return source_.width(updates_[u].outer, updates_[u].inner);
}

PanelPipeline::Flights PanelPipeline::counted(Flights flights, std::int64_t& counter) {
  for (const PanelFlight& f : flights) counter += f.posted ? 1 : 0;
  return flights;
}

void PanelPipeline::post_outer_until(std::size_t outer) {
  for (; outer_posted_ <= outer && outer_posted_ < source_.outer_steps(); ++outer_posted_)
    outer_.push_back(
        counted({source_.post_outer(kA, outer_posted_), source_.post_outer(kB, outer_posted_)}, posts_.outer));
}

// Posts the inner panels of update u; the first of an outer step first lands
// that step's outer panels.
void PanelPipeline::post(std::size_t u) {
  const auto [o, s] = updates_[u];
  if (s == 0) {
    post_outer_until(o);
    Flights& flights = outer_.front();
    current_[kA] = land(flights[kA]);
    current_[kB] = land(flights[kB]);
    outer_.pop_front();
  }
  inner_.push_back(
      counted({source_.post_inner(kA, o, s, current_[kA]), source_.post_inner(kB, o, s, current_[kB])}, posts_.inner));
}

std::pair<Panel, Panel> PanelPipeline::ready(std::size_t u) {
  while (posted_ <= u) post(posted_++);
  if (updates_[u].inner == 0) post_outer_until(updates_[u].outer + depth_);
  Flights& flights = inner_.front();
  const Panel a = land(flights[kA]), b = land(flights[kB]);
  inner_.pop_front();
  while (posted_ <= u + depth_ && posted_ < updates_.size()) post(posted_++);
  return {a, b};
}

PostCounts run_steps(PanelSource& source, int lookahead, const Element& e, const void* alpha, LocalC c,
                     const std::function<void(Phase)>& mark) {
  PanelPipeline panels(source, lookahead);
  for (std::size_t u = 0; u < panels.size(); ++u) {
    const auto [a, b] = panels.ready(u);
    if (mark) mark(Phase::panels_landed);
    if (c.rows > 0 && c.cols > 0)
      e.gemm(c.rows, c.cols, panels.width(u), alpha, a.data, a.ld, b.data, b.ld, c.data, c.ld);
    if (mark) mark(Phase::updated);
  }
  return panels.posts();
}

}  // namespace hympi::summa
