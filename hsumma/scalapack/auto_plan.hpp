// groups=auto and block=auto: the HSUMMA groups I x J and the panel widths b, M
// that the cost model predicts fastest for one call shape on this machine.
// model=measured (default) feeds it HSUMMA's broadcasts as measured on the
// grid's own communicators (hympi/hsumma/line_probe.hpp); the formula models
// feed it alpha and beta (machine_probe.hpp). Measurements are kept in the
// tuning file, so a machine pays for them once per grid and panel size.
#pragma once
#include <cstdint>

#include "hympi/hsumma/engine.hpp"
#include "redistribute.hpp"
#include "settings.hpp"

namespace hympi::hsumma::scalapack {

struct AutoPlan {
  int I = 1, J = 1;
  std::int64_t b = 1, M = 1;
};

// Collective over pos.comm. Fixed settings (groups IxJ, a block) stay as given;
// only what is auto is chosen, for a multiply of element type e (its size in
// the panels' bytes, its GEMM rate measured and kept per precision). I | P and
// J | Q on return.
AutoPlan auto_plan(const GridPos& pos, std::int64_t m, std::int64_t n, std::int64_t k, const Settings& s,
                   const summa::Element& e = summa::element<double>());

// The b block=auto tries: 64, 128, 256, 512 (those <= k, at least one).
std::vector<std::int64_t> block_candidates(std::int64_t k);

}  // namespace hympi::hsumma::scalapack
