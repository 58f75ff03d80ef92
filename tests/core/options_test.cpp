// The one table of core options (lib/src/options.hpp): every row's default is
// what CollectiveOptions{} holds, its parser takes its default and refuses
// rubbish, names are unique, and lib/README.md's "Options" table lists every
// row (so adding an option without documenting it fails here).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "options.hpp"

namespace {

using hympi::CollectiveOptions;
using hympi::detail::option_keys;

TEST(OptionsTable, DefaultsAreCollectiveOptionsDefaults) {
  const CollectiveOptions defaults;
  for (const auto& key : option_keys()) {
    CollectiveOptions parsed;
    ASSERT_TRUE(key.parse(parsed, key.default_value)) << key.name;
    EXPECT_EQ(key.value(parsed), key.value(defaults)) << key.name;
    EXPECT_EQ(key.check(defaults), "") << key.name;
  }
}

TEST(OptionsTable, NamesUniqueAndRubbishRefused) {
  std::set<std::string> names;
  for (const auto& key : option_keys()) {
    EXPECT_TRUE(names.insert(key.name).second) << key.name;
    CollectiveOptions o;
    const auto before = key.value(o);
    EXPECT_FALSE(key.parse(o, "no-such-value")) << key.name;
    EXPECT_EQ(key.value(o), before) << key.name << ": a refused value changed the option";
    EXPECT_FALSE(std::string(key.help).empty()) << key.name;
    EXPECT_FALSE(key.type.empty()) << key.name;
  }
}

TEST(OptionsTable, LeadersCheckNamesTheValue) {
  CollectiveOptions o;
  o.leaders = -1;
  EXPECT_NE(hympi::detail::option_problem(o).find("leaders must be >= 0"), std::string::npos);
}

TEST(OptionsTable, ReadmeListsEveryRow) {
  std::ifstream in(HYMPI_LIB_README);
  ASSERT_TRUE(in) << HYMPI_LIB_README;
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& key : option_keys())
    EXPECT_NE(text.str().find("| `" + std::string(key.name) + "` |"), std::string::npos)
        << key.name << " is missing from lib/README.md's Options table";
}

}  // namespace
