// The drop-in's settings (hsumma/scalapack/settings.hpp): the key table is the
// one list (the unknown-key message and README's table say the same keys in
// the same order), every key takes its values and refuses others without
// changing anything, booleans take the one vocabulary, and the environment is
// read through the same table (a bad variable is ignored, the others applied).
#include "settings.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "hympi/summa/element.hpp"

namespace hympi::hsumma::scalapack {
namespace {

std::vector<std::string> table_names() {
  std::vector<std::string> names;
  for (const SettingKey& key : setting_keys()) names.emplace_back(key.name);
  return names;
}

TEST(Settings, UnknownKeyMessageListsTheTable) {
  std::string joined;
  for (const std::string& name : table_names()) joined += (joined.empty() ? "" : " ") + name;
  EXPECT_EQ(known_setting_keys(), joined);
  Settings s;
  EXPECT_EQ(s.set("blocks", "2"), "unknown key 'blocks' (known: " + joined + ")");
  EXPECT_EQ(table_names().size(), 11u);
}

// README.md's settings table: rows "| `HYMPI_PDGEMM_X...` | `key` | ...".
TEST(Settings, ReadmeTableHasTheSameKeysAndVariables) {
  std::ifstream readme(HYMPI_SCALAPACK_README);
  ASSERT_TRUE(readme) << HYMPI_SCALAPACK_README;
  const std::regex row(R"(^\| `(HYMPI_PDGEMM[A-Z0-9_]*)[=0-9]*` \| `([a-z0-9]+)` \|)");
  std::vector<std::string> keys, variables;
  for (std::string line; std::getline(readme, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) variables.push_back(m[1]), keys.push_back(m[2]);
  }
  EXPECT_EQ(keys, table_names());
  std::vector<std::string> table_variables;
  for (const SettingKey& key : setting_keys()) table_variables.push_back(key.variable());
  EXPECT_EQ(variables, table_variables);
}

TEST(Settings, EveryKeyTakesAGoodValueAndRefusesABadOne) {
  const struct {
    const char* key;
    const char* good;
    const char* bad;
  } cases[] = {{"enabled", "off", "maybe"},
               {"policy", "pure", "fast"},
               {"sync", "barrier", "spin"},
               {"groups", "2x3", "2by3"},
               {"model", "binomial", "fastest"},
               {"block", "auto", "0"},
               {"outer", "512", "-1"},
               {"lookahead", "no", "2"},
               {"stats", "YES", "y"},
               {"engine", "redistribute", "fast"},
               {"gemm3m", "off", "3"}};
  ASSERT_EQ(std::size(cases), setting_keys().size());
  for (const auto& c : cases) {
    Settings s;
    EXPECT_EQ(s.set(c.key, c.good), "") << c.key;
    const Settings before = s;
    const std::string error = s.set(c.key, c.bad);
    EXPECT_NE(error.find(std::string("bad value '") + c.bad + "' for " + c.key + " (expected "), std::string::npos)
        << error;
    EXPECT_TRUE(s == before && s.engine == before.engine && s.stats == before.stats && s.gemm3m == before.gemm3m)
        << c.key;
  }
}

TEST(Settings, ValuesLandInTheirFields) {
  Settings s;
  EXPECT_EQ(s.set("groups", "2x3"), "");
  EXPECT_EQ(s.group_rows, 2);
  EXPECT_EQ(s.group_cols, 3);
  EXPECT_EQ(s.set("groups", "auto"), "");
  EXPECT_TRUE(s.auto_groups());
  EXPECT_EQ(s.set("engine", "direct"), "");
  EXPECT_EQ(s.engine, EngineChoice::direct);
  EXPECT_EQ(s.set("model", "pipelined"), "");
  EXPECT_STREQ(s.model_name(), "pipelined");
  EXPECT_EQ(s.set("model", "measured"), "");
  EXPECT_STREQ(s.model_name(), "measured");
  EXPECT_EQ(s.set("policy", "ori"), "");  // the core's aliases hold here too
  EXPECT_EQ(s.policy, Policy::pure);
  EXPECT_EQ(s.set("outer", "0"), "");
  EXPECT_EQ(s.outer_for(256), 256);
  for (const char* yes : {"1", "true", "Yes", "ON"}) {
    s.lookahead = false;
    EXPECT_EQ(s.set("lookahead", yes), "");
    EXPECT_TRUE(s.lookahead) << yes;
  }
  EXPECT_NE(s.set("engine", "x").find("expected 'auto', 'direct' or 'redistribute'"), std::string::npos);
  const std::string model_error = s.set("model", "x");
  EXPECT_NE(model_error.find("broadcast model"), std::string::npos);
  // The message offers 'measured' and every formula of the model's own table.
  EXPECT_NE(model_error.find("'measured'"), std::string::npos) << model_error;
  for (const std::string& name : hympi::enum_names<hympi::hsumma::model::Bcast>())
    EXPECT_NE(model_error.find("'" + name + "'"), std::string::npos) << name << ": " << model_error;
}

// 'on' where the BLAS has cgemm3m_/zgemm3m_ (summa::gemm3m_available), refused
// with the reason elsewhere; the element it selects multiplies as the plain one.
TEST(Settings, Gemm3mOnlyWhereTheBlasHasIt) {
  Settings s;
  const std::string error = s.set("gemm3m", "on");
  if (summa::gemm3m_available()) {
    EXPECT_EQ(error, "");
    EXPECT_TRUE(s.gemm3m);
  } else {
    EXPECT_NE(error.find("this BLAS has no cgemm3m_"), std::string::npos) << error;
    EXPECT_FALSE(s.gemm3m);
  }
}

// The only test that reads the process's settings(): the environment is read once.
TEST(Settings, EnvironmentThroughTheTable) {
  setenv("HYMPI_PDGEMM", "off", 1);
  setenv("HYMPI_PDGEMM_GROUPS", "2x2", 1);
  setenv("HYMPI_PDGEMM_BLOCK", "huge", 1);  // refused: the default stays
  setenv("HYMPI_PDGEMM_ENGINE", "redistribute", 1);
  const Settings& s = settings();
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.group_rows, 2);
  EXPECT_EQ(s.block, Settings{}.block);
  EXPECT_EQ(s.engine, EngineChoice::redistribute);
}

}  // namespace
}  // namespace hympi::hsumma::scalapack
