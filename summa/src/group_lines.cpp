#include "hympi/summa/group_lines.hpp"

#include <cstring>

namespace hympi::summa {

PanelFlight post_panel(Bcast* bc, int root, bool is_root, const double* src, std::int64_t ld, std::int64_t rows,
                       std::int64_t cols, bool overlap) {
  if (!bc) return {nullptr, {src, ld}};
  const std::int64_t count = rows * cols;
  if (count == 0) return {};
  const double* root_data = nullptr;  // sent without a copy
  if (is_root && (ld == rows || cols == 1)) {
    root_data = src;
  } else if (is_root) {
    double* packed = bc->buffer_as<double>();
    for (std::int64_t j = 0; j < cols; ++j) std::memcpy(packed + j * rows, src + j * ld, sizeof(double) * rows);
  }
  if (overlap) {
    bc->start(root, count, root_data);
    return {bc, {nullptr, rows}, true};
  }
  bc->run(root, count, root_data);
  return {nullptr, {bc->result_as<double>(), rows}, true};
}

PanelFlight post_outer_stage(const GroupLines& lines, int owner, bool is_owner, const double* src, std::int64_t ld,
                             std::int64_t rows, std::int64_t cols) {
  if (lines.my_place != owner % lines.width) return {};
  return post_panel(lines.outer, owner / lines.width, is_owner, is_owner ? src : nullptr, ld, rows, cols,
                    lines.overlap);
}

PanelFlight post_inner_stage(const GroupLines& lines, int owner, Panel sub, std::int64_t rows, std::int64_t cols) {
  const int place = owner % lines.width;
  const bool is_root = lines.my_place == place;
  return post_panel(lines.inner, place, is_root, is_root ? sub.data : nullptr, sub.ld, rows, cols, lines.overlap);
}

}  // namespace hympi::summa
