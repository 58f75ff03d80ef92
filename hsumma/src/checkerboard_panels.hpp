// The engine's panel source (summa/panel_pipeline.hpp): where the panels of the
// block-checkerboard layout lie and how they travel. Panel k of A lives on the
// grid column holding A's columns k, panel k of B on the grid row holding B's
// rows k (distribution.hpp's schedule names them). A panel travels in HSUMMA's
// two stages (summa/group_lines.hpp), or, hybrid, along a grid row (column) that
// lies inside one node it is read straight from the owner's block, which every
// multiply publishes once in a node-shared window (shared_inputs.hpp).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/grid.hpp"
#include "hympi/hsumma/distribution.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/summa/group_lines.hpp"
#include "hympi/summa/panel_pipeline.hpp"

namespace hympi::hsumma {

class SharedInputs;

class CheckerboardPanels : public summa::PanelSource {
 public:
  // Collective over `comm` (the grid's): builds the broadcast objects (and the
  // node-shared inputs where they pay). `grid` and `schedule` must outlive this.
  CheckerboardPanels(MPI_Comm comm, const TwoLevelGrid& grid, const EngineOptions& options, const LocalBlock& a,
                     const LocalBlock& b, const std::vector<OuterStep>& schedule);
  ~CheckerboardPanels() override;

  // The local blocks of this multiply (publishes them when inputs are shared).
  void bind(const double* A, const double* B);

  std::size_t outer_steps() const override { return schedule_.size(); }
  std::size_t inner_steps(std::size_t outer) const override { return schedule_[outer].inner.size(); }
  std::int64_t width(std::size_t outer, std::size_t inner) const override {
    return schedule_[outer].inner[inner].width();
  }
  summa::PanelFlight post_outer(summa::Operand op, std::size_t outer) override;
  summa::PanelFlight post_inner(summa::Operand op, std::size_t outer, std::size_t inner,
                                summa::Panel outer_panel) override;

  std::size_t panel_bytes_per_node() const;
  double node_sync_seconds() const;

 private:
  // What differs between the operands: A's k runs along its columns and over
  // grid columns, B's along its rows and over grid rows.
  struct Side {
    bool k_along_cols = true;             // A: true, B: false
    bool shared = false;                  // hybrid: panels read from the owners' node-shared blocks
    BlockCyclic1D k_split;                // how k splits over grid columns (A) / rows (B)
    std::int64_t first = 0;               // first k index of my block
    std::int64_t ld = 1;                  // leading dimension of my block
    std::int64_t across = 0;              // my extent across k: local rows of A / local columns of B
    int my_line = 0;                      // my grid column (A) / row (B)
    std::unique_ptr<Bcast> outer, inner;  // null when that communicator has one rank
    summa::GroupLines lines;
    const double* block = nullptr;  // this multiply's local block
    // Offset of k index +dk in a column-major block of leading dimension `lead`.
    std::int64_t k_offset(std::int64_t dk, std::int64_t lead) const { return k_along_cols ? dk * lead : dk; }
    std::int64_t rows(std::int64_t width) const { return k_along_cols ? across : width; }
    std::int64_t cols(std::int64_t width) const { return k_along_cols ? width : across; }
  };
  static int owner(summa::Operand op, const PanelStep& step) { return op == summa::kA ? step.a_col : step.b_row; }
  summa::Panel published(summa::Operand op, const PanelStep& step) const;
  template <class F>
  void for_each_bcast(F f) const;

  const TwoLevelGrid& grid_;
  const std::vector<OuterStep>& schedule_;
  Side side_[2];
  std::unique_ptr<SharedInputs> shared_;
};

}  // namespace hympi::hsumma
