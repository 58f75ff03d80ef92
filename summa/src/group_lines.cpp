#include "hympi/summa/group_lines.hpp"

#include <cstring>

namespace hympi::summa {

PanelFlight post_panel(Bcast* bc, int root, bool is_root, const void* src, std::int64_t ld, std::int64_t rows,
                       std::int64_t cols, bool overlap, std::size_t elem_size) {
  if (!bc) return {nullptr, {src, ld}};
  const std::int64_t count = rows * cols;
  if (count == 0) return {};
  const void* root_data = nullptr;  // sent without a copy
  if (is_root && (ld == rows || cols == 1)) {
    root_data = src;
  } else if (is_root) {
    std::byte* packed = bc->buffer_as<std::byte>();
    const auto* from = static_cast<const std::byte*>(src);
    const std::size_t column = elem_size * static_cast<std::size_t>(rows);
    for (std::int64_t j = 0; j < cols; ++j)
      std::memcpy(packed + static_cast<std::size_t>(j) * column, from + static_cast<std::size_t>(j * ld) * elem_size,
                  column);
  }
  if (overlap) {
    bc->start(root, count, root_data);
    return {bc, {nullptr, rows}, true};
  }
  bc->run(root, count, root_data);
  return {nullptr, {bc->result_as<std::byte>(), rows}, true};
}

PanelFlight post_outer_stage(const GroupLines& lines, int owner, bool is_owner, const void* src, std::int64_t ld,
                             std::int64_t rows, std::int64_t cols) {
  if (lines.my_place != owner % lines.width) return {};
  return post_panel(lines.outer, owner / lines.width, is_owner, is_owner ? src : nullptr, ld, rows, cols, lines.overlap,
                    lines.elem_size);
}

PanelFlight post_inner_stage(const GroupLines& lines, int owner, Panel sub, std::int64_t rows, std::int64_t cols) {
  const int place = owner % lines.width;
  const bool is_root = lines.my_place == place;
  return post_panel(lines.inner, place, is_root, is_root ? sub.data : nullptr, sub.ld, rows, cols, lines.overlap,
                    lines.elem_size);
}

}  // namespace hympi::summa
