// The block-cyclic route of the drop-in pdgemm: SUMMA run on the caller's own
// block-cyclic arrays (and staged operands), C never moved, by a plan of k
// chunks (block_cyclic_plan.hpp).
#pragma once
#include <mpi.h>

#include <cstdint>

#include "block_cyclic_plan.hpp"
#include "hympi/summa/element.hpp"
#include "panel_lines.hpp"
#include "phase_laps.hpp"
#include "redistribute.hpp"

namespace hympi::hsumma::scalapack {

// One operand's local storage on this rank.
struct LocalArray {
  const void* data;
  std::int64_t ld;
};

// sub(C) += alpha * sub(A) * sub(B) on the caller's local arrays (elements of
// type e, alpha points at one), by the plan, with lookahead when `lines` were
// reserved with it. A and B are only read. Collective over the grid.
// `laps`, when given, time each phase of the step loop.
void block_cyclic_summa(const ChunkPlan& plan, const PanelLineSet& lines, const GridPos& pos, const summa::Element& e,
                        const void* alpha, LocalArray a, LocalArray b, void* c, std::int64_t ldc,
                        StepLaps* laps = nullptr);

}  // namespace hympi::hsumma::scalapack
