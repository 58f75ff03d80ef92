// A checkpoint stores the iteration counts as int64 and the sampler keeps them as
// int: a count outside 0..INT_MAX is refused naming the file and the field, not
// narrowed (2^32 + 2 would become iteration 2 and pass every later check).
#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "bpmf/checkpoint.hpp"
#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"

namespace {

namespace fs = std::filesystem;

// The identity of checkpoint.hpp's format (HYBPMFC3): magic, chain id, then eleven
// 8-byte fields (eight up to alpha, the noise's three); the iteration and averaged counts follow.
constexpr std::size_t kIterationOffset = 8 + 32 + 11 * 8;

class CheckpointCounts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "bpmf_counts_" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    id_ = {12345, 3, 2, 3, 2, 5, 9, 2.0, "0123456789abcdef0123456789abcdef"};
    bpmf::ChainState s;
    s.iteration = 7;
    s.averaged = 2;
    s.U = {1, 2, 3, 4, 5, 6};
    s.V = {-1, 0.5, 0.25, 8};
    s.prediction_sum = s.moment_mean = s.moment_m2 = {1.5, 2.5, 3.5};
    bpmf::write_checkpoint(dir_, id_, s);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Rewrites the stored counts (and the checksum, so that only the counts are wrong).
  void store_counts(std::int64_t iteration, std::int64_t averaged) {
    const std::string path = bpmf::checkpoint_path(dir_);
    std::string bytes = bpmf::read_whole_file(path);
    std::memcpy(&bytes[kIterationOffset], &iteration, 8);
    std::memcpy(&bytes[kIterationOffset + 8], &averaged, 8);
    const std::uint64_t sum = bpmf::checkpoint_checksum(bytes.data(), bytes.size() - 8);
    std::memcpy(&bytes[bytes.size() - 8], &sum, 8);
    bpmf::write_file_durably(path, bytes);
  }
  std::string error() const {
    try {
      bpmf::read_checkpoint(dir_, id_);
    } catch (const bpmf::InputError& e) {
      return e.what();
    }
    return "";
  }

  std::string dir_;
  bpmf::ChainIdentity id_;
};

TEST_F(CheckpointCounts, FieldsWhereTheFormatSaysTheyAre) {
  store_counts(7, 2);  // the values written: the offset is right
  const auto s = bpmf::read_checkpoint(dir_, id_);
  EXPECT_EQ(s.iteration, 7);
  EXPECT_EQ(s.averaged, 2);
}

TEST_F(CheckpointCounts, IntMaxIsRead) {
  store_counts(INT_MAX, INT_MAX - 5);
  const auto s = bpmf::read_checkpoint(dir_, id_);
  EXPECT_EQ(s.iteration, INT_MAX);
  EXPECT_EQ(s.averaged, INT_MAX - 5);
}

TEST_F(CheckpointCounts, IterationPastIntIsRefused) {
  store_counts((std::int64_t{1} << 32) + 7, 2);
  const std::string e = error();
  EXPECT_NE(e.find("checkpoint '" + bpmf::checkpoint_path(dir_) + "' has iteration 4294967303, outside 0..2147483647"),
            std::string::npos)
      << e;
}

TEST_F(CheckpointCounts, AveragedPastIntIsRefused) {
  store_counts(7, (std::int64_t{1} << 32) + 2);
  const std::string e = error();
  EXPECT_NE(e.find("has averaged 4294967298, outside"), std::string::npos) << e;
}

TEST_F(CheckpointCounts, NegativeCountIsRefused) {
  store_counts(-1, 0);
  EXPECT_NE(error().find("has iteration -1, outside"), std::string::npos) << error();
}

}  // namespace
