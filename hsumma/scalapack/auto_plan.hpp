// The panels of a call (both routes plan them here, pdgemm_route.cpp): fixed
// groups and block as set; under groups=auto and block=auto the HSUMMA groups
// I x J and the panel widths b, M that the cost model predicts fastest for one
// call shape on this machine.
// model=measured (default) feeds it HSUMMA's broadcasts as measured on the
// grid's own communicators (hympi/hsumma/line_probe.hpp); the formula models
// feed it alpha and beta (machine_probe.hpp). Measurements are kept in the
// tuning file, so a machine pays for them once per grid and panel size.
#pragma once
#include <array>
#include <cstdint>
#include <list>
#include <utility>
#include <vector>

#include "hympi/hsumma/engine.hpp"
#include "redistribute.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

// The panels of a multiply: HSUMMA groups I x J (I | P, J | Q), inner width b
// and outer width M (a multiple of b).
struct PanelPlan {
  int I = 1, J = 1;
  std::int64_t b = 1, M = 1;
  bool operator==(const PanelPlan& o) const { return I == o.I && J == o.J && b == o.b && M == o.M; }
};

// A call shape and the settings it runs under, for one element type: what
// the model's choices are remembered by (per grid), and engines built by.
struct ShapeKey {
  std::int64_t m, n, k;
  Settings settings;
  const summa::Element* elem = &summa::element<double>();  // plans are per precision
  bool operator==(const ShapeKey& o) const {
    return m == o.m && n == o.n && k == o.k && settings == o.settings && elem == o.elem;
  }
};

// The model's recent choices on one grid (most recent first), kept by the
// grid (GridEntry::panel_choices) so that they go with it.
using PanelChoices = std::list<std::pair<ShapeKey, PanelPlan>>;

// The panels for a multiply of `key` on the grid at `pos`, its broadcasts set
// up as `o` (policy, sync, lookahead, node layout). Fixed settings (groups
// IxJ, a block) stay as given (groups shrunk by Settings::groups_on), local;
// what is auto is chosen by the cost model (collective over pos.comm,
// measuring the element's GEMM rate, kept per precision), or found among the
// grid's `remembered` choices (every rank of a grid sees the same calls: all
// find or all choose).
PanelPlan plan_panels(const GridPos& pos, PanelChoices& remembered, const ShapeKey& key, const EngineOptions& o);

// The b block=auto tries: 64, 128, 256, 512 (those <= k, at least one).
inline constexpr std::array<std::int64_t, 4> kBlockCandidates{64, 128, 256, 512};
std::vector<std::int64_t> block_candidates(std::int64_t k);

// The widest panel a call may get: `block`, or under block=auto the widest candidate.
inline std::int64_t widest_block(const Settings& s) {
  return s.auto_block() ? kBlockCandidates.back() : s.block;
}

}  // namespace hympi::hsumma::scalapack
