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

// The panels for a multiply of element type e under these settings. Fixed
// settings (groups IxJ, a block) stay as given (groups shrunk by
// Settings::groups_on), local; what is auto is chosen by the cost model
// (collective over pos.comm, measuring e's GEMM rate, kept per precision).
PanelPlan plan_panels(const GridPos& pos, std::int64_t m, std::int64_t n, std::int64_t k, const Settings& s,
                      const summa::Element& e = summa::element<double>());

// The b block=auto tries: 64, 128, 256, 512 (those <= k, at least one).
inline constexpr std::array<std::int64_t, 4> kBlockCandidates{64, 128, 256, 512};
std::vector<std::int64_t> block_candidates(std::int64_t k);

// The widest panel a call may get: `block`, or under block=auto the widest candidate.
inline std::int64_t widest_block(const Settings& s) {
  return s.auto_block() ? kBlockCandidates.back() : s.block;
}

}  // namespace hympi::hsumma::scalapack
