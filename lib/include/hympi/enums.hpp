// The words of hympi's options: the enums that are named on command lines, in
// environment variables, MPI_Info values and CSV columns, and the one boolean
// vocabulary. Each enum has one table (EnumTable below): its names, which
// to_string gives and --help lists, and the aliases parsing also accepts. Every
// parse_x, to_string, app validator and "expected ..." message is generated from
// that table, so a new value or spelling is added in one place.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hympi {

// Collectives: every rank its own copy, or one copy per node (collectives.hpp).
enum class Policy { pure, hybrid };

// Node synchronization (node_sync.hpp).
enum class SyncKind {
  barrier,  // MPI_Barrier on the node communicator (as in Zhou et al.)
  flags     // per-rank epoch counters in shared memory, acquire/release
};

// Rank order of a process grid (grid.hpp).
enum class GridOrder {
  row_major,    // rank = row * Q + col
  column_major  // rank = col * P + row
};

// Ranks on emulated nodes (layout.hpp).
enum class Placement { block, round_robin };

template <class Enum>
struct Spelling {
  const char* text;
  Enum value;
};

// One specialization per enum: `what` names it in errors, `names` holds one
// spelling per value in declaration order, `aliases` further spellings parsing
// accepts (any range: std::array<Spelling<E>, 0> for none). Other modules may
// specialize it for their own enums.
template <class Enum>
struct EnumTable;

template <>
struct EnumTable<Policy> {
  static constexpr const char* what = "policy";
  static constexpr Spelling<Policy> names[] = {{"pure", Policy::pure}, {"hybrid", Policy::hybrid}};
  // The papers' names, for the C and Fortran faces.
  static constexpr Spelling<Policy> aliases[] = {{"ori", Policy::pure}, {"mpi", Policy::pure}, {"hy", Policy::hybrid}};
};

template <>
struct EnumTable<SyncKind> {
  static constexpr const char* what = "sync";
  static constexpr Spelling<SyncKind> names[] = {{"barrier", SyncKind::barrier}, {"flags", SyncKind::flags}};
  static constexpr Spelling<SyncKind> aliases[] = {{"flag", SyncKind::flags}};
};

template <>
struct EnumTable<GridOrder> {
  static constexpr const char* what = "grid order";
  static constexpr Spelling<GridOrder> names[] = {{"row", GridOrder::row_major}, {"col", GridOrder::column_major}};
  static constexpr Spelling<GridOrder> aliases[] = {{"row-major", GridOrder::row_major},
                                                    {"column", GridOrder::column_major},
                                                    {"column-major", GridOrder::column_major}};
};

template <>
struct EnumTable<Placement> {
  static constexpr const char* what = "placement";
  static constexpr Spelling<Placement> names[] = {{"block", Placement::block}, {"roundrobin", Placement::round_robin}};
  // Other tools' words for the same distributions (SLURM's "cyclic").
  static constexpr Spelling<Placement> aliases[] = {{"smp", Placement::block},
                                                    {"round-robin", Placement::round_robin},
                                                    {"rr", Placement::round_robin},
                                                    {"cyclic", Placement::round_robin}};
};

// "'a' or 'b'" / "'a', 'b' or 'c'": the names of a table, for messages.
std::string quoted_choice(const std::vector<std::string>& names);
// Throws Error(invalid_argument): "hympi: <what> must be <names> (also accepted: <aliases>), got '<text>'".
[[noreturn]] void throw_unknown_name(const char* what, const std::vector<std::string>& names,
                                     const std::vector<std::string>& aliases, std::string_view text);

// The names of Enum's values, in declaration order.
template <class Enum>
std::vector<std::string> enum_names() {
  std::vector<std::string> out;
  for (const auto& s : EnumTable<Enum>::names) out.emplace_back(s.text);
  return out;
}

// "'pure' or 'hybrid'": what a message says is expected.
template <class Enum>
std::string enum_choice() {
  return quoted_choice(enum_names<Enum>());
}

// A name or an alias -> the value; anything else throws hympi::Error listing them.
template <class Enum>
Enum parse_enum(std::string_view text) {
  for (const auto& s : EnumTable<Enum>::names)
    if (text == s.text) return s.value;
  for (const auto& s : EnumTable<Enum>::aliases)
    if (text == s.text) return s.value;
  std::vector<std::string> aliases;
  for (const auto& s : EnumTable<Enum>::aliases) aliases.emplace_back(s.text);
  throw_unknown_name(EnumTable<Enum>::what, enum_names<Enum>(), aliases, text);
}

// The value's name (never an alias).
template <class Enum>
const char* enum_name(Enum value) {
  for (const auto& s : EnumTable<Enum>::names)
    if (s.value == value) return s.text;
  return "?";  // unreachable for a value of the enum: every value has a name
}

inline Policy parse_policy(std::string_view text) {
  return parse_enum<Policy>(text);
}
inline SyncKind parse_sync(std::string_view text) {
  return parse_enum<SyncKind>(text);
}
inline GridOrder parse_grid_order(std::string_view text) {
  return parse_enum<GridOrder>(text);
}
inline Placement parse_placement(std::string_view text) {
  return parse_enum<Placement>(text);
}
inline const char* to_string(Policy value) {
  return enum_name(value);
}
inline const char* to_string(SyncKind value) {
  return enum_name(value);
}
inline const char* to_string(GridOrder value) {
  return enum_name(value);
}
inline const char* to_string(Placement value) {
  return enum_name(value);
}

// The one boolean vocabulary of settings and environment variables: 1/0,
// true/false, yes/no, on/off, in any case. Empty when `text` is none of them.
std::optional<bool> parse_bool(std::string_view text);
// "1/0, true/false, yes/no, on/off (any case)": for messages and help.
std::string bool_spellings();

}  // namespace hympi
