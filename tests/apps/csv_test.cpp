#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "csv_writer.hpp"

using hympi::apps::CsvWriter;

namespace {
std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST(Csv, EscapesFields) {
  EXPECT_EQ(hympi::apps::csv_escape("plain"), "plain");
  EXPECT_EQ(hympi::apps::csv_escape("a,b"), "\"a,b\"");
  EXPECT_EQ(hympi::apps::csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(Csv, AppendsUnderTheSameHeaderAndRefusesAnother) {
  const std::string path = testing::TempDir() + "hympi_csv_test.csv";
  std::remove(path.c_str());
  {
    CsvWriter w(path, {"a", "b"});
    w.row({"1", "2"});
  }
  {
    CsvWriter w(path, {"a", "b"});
    w.row({"3", "x,y"});
    EXPECT_THROW(w.row({"only one"}), std::logic_error);
  }
  EXPECT_EQ(read_all(path), "a,b\n1,2\n3,\"x,y\"\n");
  EXPECT_THROW(CsvWriter(path, {"a", "c"}), std::runtime_error);
  EXPECT_EQ(read_all(path), "a,b\n1,2\n3,\"x,y\"\n");  // nothing already written is lost
  std::remove(path.c_str());
}
