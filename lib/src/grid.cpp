#include "hympi/grid.hpp"

#include <vector>

#include "comm_from_ranks.hpp"
#include "hympi/error.hpp"
#include "intracomm.hpp"

namespace hympi {

std::pair<int, int> most_square_grid(int ranks) {
  require(ranks >= 1, "a grid needs at least one rank, got " + std::to_string(ranks));
  int p = 1;
  while ((p + 1) * (p + 1) <= ranks) ++p;
  while (ranks % p != 0) --p;
  return {p, ranks / p};
}

std::pair<int, int> parse_grid(std::string_view text, const std::string& what) {
  const auto number = [](std::string_view digits, int& out) {
    if (digits.empty() || digits.size() > 9) return false;
    out = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    return out >= 1;
  };
  const auto x = text.find_first_of("xX");
  int p = 0, q = 0;
  require(x != std::string_view::npos && number(text.substr(0, x), p) && number(text.substr(x + 1), q),
          what + " must be PxQ with P, Q >= 1 (e.g. 2x3), got '" + std::string(text) + "'");
  return {p, q};
}

namespace {
void free_comm(MPI_Comm& comm) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm);
}
int comm_size(MPI_Comm comm) {
  int size = 0;
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size));
  return size;
}
// Ranks along a line of the grid: rank_at(i) for i = 0..count-1.
template <class RankAt>
std::vector<int> line(int count, RankAt rank_at) {
  std::vector<int> ranks(count);
  for (int i = 0; i < count; ++i) ranks[i] = rank_at(i);
  return ranks;
}
// Distinct tags per communicator built, so concurrent creations never match each other.
enum CreateTag : int { row_tag = 1, col_tag, outer_row_tag, outer_col_tag, inner_row_tag, inner_col_tag };
}  // namespace

Grid2D::Grid2D(MPI_Comm comm, int P, int Q, GridOrder order) : comm_(comm), P_(P), Q_(Q), order_(order) {
  require_intracomm(comm, "Grid2D");
  const int size = comm_size(comm);
  require(P >= 1 && Q >= 1, "grid " + std::to_string(P) + "x" + std::to_string(Q) + " must have P, Q >= 1");
  require(P * Q == size, "grid " + std::to_string(P) + "x" + std::to_string(Q) + " needs " + std::to_string(P * Q) +
                             " ranks but the communicator has " + std::to_string(size));
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  row_ = order == GridOrder::row_major ? rank / Q : rank % P;
  col_ = order == GridOrder::row_major ? rank % Q : rank / P;
  row_comm_ = comm_from_ranks(comm, line(Q, [&](int c) { return rank_of(row_, c); }), row_tag);
  col_comm_ = comm_from_ranks(comm, line(P, [&](int r) { return rank_of(r, col_); }), col_tag);
}

Grid2D::~Grid2D() {
  free_comm(row_comm_);
  free_comm(col_comm_);
}

int Grid2D::rank_of(int row, int col) const {
  return order_ == GridOrder::row_major ? row * Q_ + col : col * P_ + row;
}

int TwoLevelShape::rank_of(int row, int col) const {
  if (!group_major) return order == GridOrder::row_major ? row * Q + col : col * P + row;
  const int gr = group_rows(), gc = group_cols();
  const int group = order == GridOrder::row_major ? (row / gr) * J + col / gc : (col / gc) * I + row / gr;
  const int inside = order == GridOrder::row_major ? (row % gr) * gc + col % gc : (col % gc) * gr + row % gr;
  return group * gr * gc + inside;
}

void TwoLevelShape::validate(int comm_size) const {
  const std::string grid = std::to_string(P) + "x" + std::to_string(Q);
  const std::string groups = std::to_string(I) + "x" + std::to_string(J);
  require(P >= 1 && Q >= 1, "grid " + grid + " must have P, Q >= 1");
  require(P * Q == comm_size, "grid " + grid + " needs " + std::to_string(P * Q) + " ranks but the communicator has " +
                                  std::to_string(comm_size));
  require(I >= 1 && J >= 1 && P % I == 0 && Q % J == 0,
          "groups " + groups + " must divide the grid " + grid + " (I | P and J | Q)");
}

TwoLevelGrid::TwoLevelGrid(MPI_Comm comm, TwoLevelShape shape) : shape_(shape) {
  require_intracomm(comm, "TwoLevelGrid");
  shape_.validate(comm_size(comm));
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  for (int r = 0; r < shape_.P; ++r)
    for (int c = 0; c < shape_.Q; ++c)
      if (shape_.rank_of(r, c) == rank) row_ = r, col_ = c;
  const int gr = shape_.group_rows(), gc = shape_.group_cols();
  const auto at = [&](int row, int col) { return shape_.rank_of(row, col); };
  // Outer: my row (column) across groups, same position inside each group; rank = group index.
  outer_row_ =
      comm_from_ranks(comm, line(shape_.J, [&](int j) { return at(row_, j * gc + col_in_group()); }), outer_row_tag);
  outer_col_ =
      comm_from_ranks(comm, line(shape_.I, [&](int i) { return at(i * gr + row_in_group(), col_); }), outer_col_tag);
  // Inner: my row (column) inside my group; rank = position in the group.
  inner_row_ = comm_from_ranks(comm, line(gc, [&](int c) { return at(row_, group_col() * gc + c); }), inner_row_tag);
  inner_col_ = comm_from_ranks(comm, line(gr, [&](int r) { return at(group_row() * gr + r, col_); }), inner_col_tag);
}

TwoLevelGrid::~TwoLevelGrid() {
  free_comm(outer_row_);
  free_comm(outer_col_);
  free_comm(inner_row_);
  free_comm(inner_col_);
}

}  // namespace hympi
