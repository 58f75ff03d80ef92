// The enum tables (hympi/enums.hpp): every name parses back to its value,
// aliases parse, to_string never gives an alias, a bad name's message lists the
// accepted names, and the one boolean vocabulary. Also the grid text and rule of
// grid.hpp (pure functions; the Python copy is compared in tests/model).
#include "hympi/enums.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"

namespace {

template <class Enum>
void expect_round_trip() {
  for (const auto& s : hympi::EnumTable<Enum>::names) {
    EXPECT_EQ(hympi::parse_enum<Enum>(s.text), s.value) << s.text;
    EXPECT_STREQ(hympi::enum_name(s.value), s.text);
  }
  for (const auto& s : hympi::EnumTable<Enum>::aliases) EXPECT_EQ(hympi::parse_enum<Enum>(s.text), s.value) << s.text;
}

// The message of parse_enum<Enum>(text), or "" when it did not throw.
template <class Enum>
std::string refusal(const std::string& text) {
  try {
    hympi::parse_enum<Enum>(text);
  } catch (const hympi::Error& e) {
    EXPECT_EQ(e.code(), hympi::ErrorCode::invalid_argument);
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Enums, NamesAndAliasesRoundTrip) {
  expect_round_trip<hympi::Policy>();
  expect_round_trip<hympi::SyncKind>();
  expect_round_trip<hympi::GridOrder>();
  expect_round_trip<hympi::Placement>();
}

TEST(Enums, OldNamesKeepTheirMeaning) {
  EXPECT_EQ(hympi::parse_policy("mpi"), hympi::Policy::pure);
  EXPECT_EQ(hympi::parse_policy("hy"), hympi::Policy::hybrid);
  EXPECT_EQ(hympi::parse_sync("flag"), hympi::SyncKind::flags);
  EXPECT_EQ(hympi::parse_grid_order("column-major"), hympi::GridOrder::column_major);
  EXPECT_EQ(hympi::parse_placement("cyclic"), hympi::Placement::round_robin);
  EXPECT_STREQ(hympi::to_string(hympi::Policy::hybrid), "hybrid");
  EXPECT_STREQ(hympi::to_string(hympi::SyncKind::barrier), "barrier");
  EXPECT_STREQ(hympi::to_string(hympi::GridOrder::column_major), "col");
  EXPECT_STREQ(hympi::to_string(hympi::Placement::round_robin), "roundrobin");
}

TEST(Enums, RefusalListsTheAcceptedNames) {
  EXPECT_EQ(refusal<hympi::Policy>("fast"),
            "hympi: policy must be 'pure' or 'hybrid' (also accepted: 'ori', 'mpi', 'hy'), got 'fast'");
  EXPECT_EQ(refusal<hympi::Placement>("diagonal"),
            "hympi: placement must be 'block' or 'roundrobin' (also accepted: 'smp', 'round-robin', 'rr', 'cyclic'), "
            "got 'diagonal'");
  EXPECT_EQ(refusal<hympi::SyncKind>("Flags"),
            "hympi: sync must be 'barrier' or 'flags' (also accepted: 'flag'), got 'Flags'");
  EXPECT_EQ(hympi::enum_choice<hympi::GridOrder>(), "'row' or 'col'");
  EXPECT_EQ(hympi::quoted_choice({"a", "b", "c"}), "'a', 'b' or 'c'");
}

TEST(Bool, OneVocabularyInAnyCase) {
  for (const char* yes : {"1", "true", "yes", "on", "TRUE", "Yes", "On"})
    EXPECT_EQ(hympi::parse_bool(yes), true) << yes;
  for (const char* no : {"0", "false", "no", "off", "FALSE", "No", "OFF"})
    EXPECT_EQ(hympi::parse_bool(no), false) << no;
  for (const char* neither : {"", "2", "y", "truee", "of", " on"}) EXPECT_FALSE(hympi::parse_bool(neither)) << neither;
  EXPECT_EQ(hympi::bool_spellings(), "1/0, true/false, yes/no, on/off (any case)");
}

TEST(Grid, ParsesPxQ) {
  EXPECT_EQ(hympi::parse_grid("2x3"), std::make_pair(2, 3));
  EXPECT_EQ(hympi::parse_grid("32X1"), std::make_pair(32, 1));
  for (const char* bad : {"", "x", "2x", "x3", "0x2", "2x0", "2by3", "2x3x", " 2x3", "-1x2", "2x+3", "9999999999x1"})
    EXPECT_THROW(hympi::parse_grid(bad), hympi::Error) << bad;
  try {
    hympi::parse_grid("3by2", "--grid");
    FAIL() << "3by2 accepted";
  } catch (const hympi::Error& e) {
    EXPECT_STREQ(e.what(), "hympi: --grid must be PxQ with P, Q >= 1 (e.g. 2x3), got '3by2'");
  }
}

TEST(Grid, MostSquare) {
  EXPECT_EQ(hympi::most_square_grid(1), std::make_pair(1, 1));
  EXPECT_EQ(hympi::most_square_grid(12), std::make_pair(3, 4));
  EXPECT_EQ(hympi::most_square_grid(16), std::make_pair(4, 4));
  EXPECT_EQ(hympi::most_square_grid(17), std::make_pair(1, 17));
  EXPECT_EQ(hympi::most_square_grid(1024), std::make_pair(32, 32));
  EXPECT_THROW(hympi::most_square_grid(0), hympi::Error);
}
