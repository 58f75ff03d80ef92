// Matrix Market input: good files (plain and gzipped) read back exactly, bad ones
// are rejected with a message that names the problem.
#include "bpmf/matrix_market.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "bpmf/synthetic.hpp"

namespace {

class MatrixMarket : public ::testing::Test {
 protected:
  std::string path(const std::string& name) {
    return ::testing::TempDir() + "bpmf_mm_" + std::to_string(getpid()) + "_" + name;
  }
  std::string write(const std::string& name, const std::string& text) {
    const auto p = path(name);
    std::ofstream(p) << text;
    return p;
  }
  // The message of the InputError that reading `text` raises ("" if none).
  std::string error_of(const std::string& text) {
    try {
      bpmf::read_matrix_market(write("bad.mm", text));
    } catch (const bpmf::InputError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(MatrixMarket, ReadsCoordinateRealGeneral) {
  const auto r = bpmf::read_matrix_market(
      write("ok.mm", "%%MatrixMarket matrix coordinate real general\n% comment\n\n3 2 3\n1 1 5.5\n3 2 -1e-3\n2 1 7\n"));
  EXPECT_EQ(r.rows, 3);
  EXPECT_EQ(r.cols, 2);
  ASSERT_EQ(r.entries.size(), 3u);
  EXPECT_EQ(r.entries[1].row, 2);
  EXPECT_EQ(r.entries[1].col, 1);
  EXPECT_EQ(r.entries[1].value, -1e-3);
}

TEST_F(MatrixMarket, TabsAndCrLfAndIntegerField) {
  const auto r = bpmf::read_matrix_market(
      write("tabs.mm", "%%MatrixMarket matrix coordinate integer general\r\n2\t2\t1\r\n2\t2\t4\r\n"));
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].value, 4.0);
}

TEST_F(MatrixMarket, GzipRoundTripIsExact) {
  bpmf::SyntheticSpec spec;
  spec.rows = 50;
  spec.cols = 40;
  spec.density = 0.3;
  const auto data = bpmf::generate_synthetic(spec);
  for (const std::string name : {"round.mm", "round.mm.gz"}) {
    bpmf::write_matrix_market(path(name), data.train, "test");
    const auto back = bpmf::read_matrix_market(path(name));
    EXPECT_EQ(back.rows, 50);
    EXPECT_EQ(back.cols, 40);
    ASSERT_EQ(back.entries.size(), data.train.entries.size());
    for (std::size_t k = 0; k < back.entries.size(); ++k) {
      EXPECT_EQ(back.entries[k].row, data.train.entries[k].row);
      EXPECT_EQ(back.entries[k].col, data.train.entries[k].col);
      EXPECT_EQ(back.entries[k].value, data.train.entries[k].value);  // %.17g is exact
    }
  }
  // The .gz file really is compressed.
  std::ifstream gz(path("round.mm.gz"), std::ios::binary);
  unsigned char magic[2] = {};
  gz.read(reinterpret_cast<char*>(magic), 2);
  EXPECT_EQ(magic[0], 0x1f);
  EXPECT_EQ(magic[1], 0x8b);
}

// A .gz file cut short (a copy interrupted, a full disk) is an error, not a shorter
// matrix: zlib's "unexpected end of file" must not be read as the end of the data.
// Cut by 14 bytes, the last value 1.23456789012345 would otherwise be read as 1.234567.
TEST_F(MatrixMarket, TruncatedGzipIsAnError) {
  bpmf::Ratings r;
  r.rows = 20;
  r.cols = 20;
  for (int k = 0; k < 300; ++k) r.entries.push_back({k % 20, k / 20, 0.5 + k});
  r.entries.push_back({19, 19, 1.23456789012345});
  const std::string whole = path("whole.mm.gz");
  bpmf::write_matrix_market(whole, r, "test");
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 40u);
  EXPECT_EQ(bpmf::read_matrix_market(whole).entries.back().value, 1.23456789012345);
  for (const std::size_t cut : {1, 4, 8, 9, 14, 20}) {
    const std::string p = path("cut.mm.gz");
    std::ofstream(p, std::ios::binary) << bytes.substr(0, bytes.size() - cut);
    try {
      const auto back = bpmf::read_matrix_market(p);
      ADD_FAILURE() << "cut by " << cut << " bytes: read " << back.entries.size() << " entries, the last "
                    << (back.entries.empty() ? 0.0 : back.entries.back().value);
    } catch (const bpmf::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  }
}

TEST_F(MatrixMarket, MissingFile) {
  try {
    bpmf::read_matrix_market(path("does-not-exist.mm"));
    FAIL() << "no error";
  } catch (const bpmf::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

TEST_F(MatrixMarket, BadFilesAreRejectedWithTheReason) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n";
  const struct {
    std::string text, expect;
  } cases[] = {
      {"", "is empty"},
      {"3 3 1\n1 1 1\n", "not a Matrix Market file"},
      {"%%MatrixMarket matrix array real general\n3 3\n", "expected 'matrix coordinate'"},
      {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "unsupported field"},
      {"%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n", "unsupported field"},
      {"%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 1\n", "unsupported symmetry"},
      {head, "no size line"},
      {head + "3 x 1\n", "malformed size line"},
      {head + "0 3 1\n", "bad matrix size"},
      {head + "3 3 2\n1 1 1\n", "expected 2 entries, found only 1"},
      {head + "3 3 1\n1 1 1\n2 2 2\n", "more entries than"},
      {head + "3 3 1\n4 1 1\n", "index out of range"},
      {head + "3 3 1\n1 0 1\n", "index out of range"},
      {head + "3 3 1\n1 1 abc\n", "malformed entry"},
      {head + "3 3 1\n1 1 nan\n", "malformed entry"},
      {head + "3 3 1\n1.5 1 2\n", "malformed entry"},
      {head + "3 3 1\n1 1 2 7\n", "malformed entry"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(c.text);
    EXPECT_NE(message.find(c.expect), std::string::npos)
        << "input:\n"
        << c.text << "\nexpected '" << c.expect << "', got '" << message << "'";
  }
  // Line numbers point at the culprit.
  EXPECT_NE(error_of(head + "% c\n3 3 2\n1 1 1\n9 1 1\n").find("line 5"), std::string::npos);
}

TEST_F(MatrixMarket, TestEntriesOutsideTheTrainingShape) {
  bpmf::Ratings train{3, 2, {{0, 0, 1.0}}};
  bpmf::Ratings inside{3, 2, {{2, 1, 1.0}}}, smaller{2, 2, {{1, 1, 1.0}}}, outside{4, 2, {{3, 0, 1.0}}};
  EXPECT_NO_THROW(bpmf::check_test_within_train(train, inside, "t"));
  EXPECT_NO_THROW(bpmf::check_test_within_train(train, smaller, "t"));
  try {
    bpmf::check_test_within_train(train, outside, "t.mm");
    FAIL() << "no error";
  } catch (const bpmf::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("outside the training matrix"), std::string::npos) << e.what();
  }
}

}  // namespace
