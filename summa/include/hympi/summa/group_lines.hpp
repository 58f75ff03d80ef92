// How one operand's panels travel along a grid row (A) or column (B): HSUMMA's
// two broadcast stages, shared by every layout. The grid lines (columns for A,
// rows for B) are split into groups `width` lines wide; a panel owned by line r
// sits at place r % width of group r / width. It goes first among the groups to
// the ranks at that place (outer), then inside every group from there (inner).
// SUMMA is one group across: no outer line, the owner sends inside the group.
#pragma once
#include <cstdint>

#include "hympi/collectives.hpp"
#include "hympi/summa/panel_pipeline.hpp"

namespace hympi::summa {

struct GroupLines {
  Bcast* outer = nullptr;                  // among the groups; null: one group across
  Bcast* inner = nullptr;                  // inside my group; null: one rank across (read in place)
  int width = 1;                           // grid lines per group
  int my_place = 0;                        // my line's place inside my group
  bool overlap = false;                    // post with start() (lookahead), else complete with run()
  std::size_t elem_size = sizeof(double);  // bytes per element of the panels
};

// Posts the panel rows x cols at the root's `src` (column-major, leading
// dimension ld) over `bc` from `root`. A line of one rank (no bc) reads it in
// place. A contiguous panel is sent from `src` itself, else packed into the
// broadcast buffer. An empty panel is not sent.
PanelFlight post_panel(Bcast* bc, int root, bool is_root, const void* src, std::int64_t ld, std::int64_t rows,
                       std::int64_t cols, bool overlap, std::size_t elem_size);

// The outer stage of the panel owned by line `owner`, from `src` on the owner
// (ignored elsewhere). Ranks not at the owner's place get an empty panel: theirs
// comes in the inner stage.
PanelFlight post_outer_stage(const GroupLines& lines, int owner, bool is_owner, const void* src, std::int64_t ld,
                             std::int64_t rows, std::int64_t cols);

// The inner stage: `sub` is the panel (part of the landed outer one) on the rank
// at the owner's place; every rank of the group gets it.
PanelFlight post_inner_stage(const GroupLines& lines, int owner, Panel sub, std::int64_t rows, std::int64_t cols);

}  // namespace hympi::summa
