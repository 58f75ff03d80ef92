// The files behind checkpoints and saved samples: a durable write replaces the file
// by a rename (a reader holding the old file keeps the old bytes whole, no temporary
// file is left); checkpoints and .npy matrices read back exactly; truncated or
// corrupted checkpoints, and those of another chain, are refused with a clear message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bpmf/checkpoint.hpp"
#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/npy.hpp"

namespace {

namespace fs = std::filesystem;

class CheckpointFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "bpmf_ckpt_" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

bpmf::ChainState small_state() {
  bpmf::ChainState s;
  s.iteration = 7;
  s.averaged = 2;
  s.U = {1, 2, 3, 4, 5, 6};
  s.V = {-1, 0.5, 0.25, 8};
  s.prediction_sum = {1.5, 2.5, 3.5};
  s.moment_mean = {0.75, 1.25, 1.75};
  s.moment_m2 = {0.1, 0.2, 0.3};
  return s;
}

// data hash, rows, cols, test entries, K, burn-in, seed, alpha, chain id
bpmf::ChainIdentity small_identity() {
  return {12345, 3, 2, 3, 2, 5, 9, 2.0, "0123456789abcdef0123456789abcdef"};
}

std::string error_of(const std::string& dir, const bpmf::ChainIdentity& id) {
  try {
    bpmf::read_checkpoint(dir, id);
  } catch (const bpmf::InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(CheckpointFiles, DurableWriteReplacesByRename) {
  const std::string path = dir_ + "/file";
  bpmf::write_file_durably(path, "old contents");
  std::ifstream old_reader(path);  // keeps the old file open, as a concurrent reader would
  bpmf::write_file_durably(path, "new");
  std::stringstream seen;
  seen << old_reader.rdbuf();
  EXPECT_EQ(seen.str(), "old contents") << "the file was overwritten in place, not replaced";
  EXPECT_EQ(bpmf::read_whole_file(path), "new");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1) << "a temporary file was left behind";
}

TEST_F(CheckpointFiles, RoundTripAndRefusals) {
  const auto id = small_identity();
  const auto state = small_state();
  bpmf::write_checkpoint(dir_, id, state);
  const auto back = bpmf::read_checkpoint(dir_, id);
  EXPECT_EQ(back.iteration, 7);
  EXPECT_EQ(back.averaged, 2);
  EXPECT_EQ(back.U, state.U);
  EXPECT_EQ(back.V, state.V);
  EXPECT_EQ(back.moment_m2, state.moment_m2);

  auto other = id;
  other.K = 3;
  EXPECT_NE(error_of(dir_, other).find("other K: checkpoint K 2, this run K 3"), std::string::npos);
  other = id;
  other.data_hash = 1;
  EXPECT_NE(error_of(dir_, other).find("other data"), std::string::npos);
  // The same data and model but another chain: refused when a chain id is expected,
  // read (and the id reported) when any chain will do (a resume adopts it).
  other = id;
  other.chain = bpmf::new_chain_id();
  EXPECT_NE(error_of(dir_, other).find("other chain id: checkpoint chain " + id.chain), std::string::npos);
  other.chain.clear();
  std::string found;
  EXPECT_EQ(bpmf::read_checkpoint(dir_, other, &found).iteration, 7);
  EXPECT_EQ(found, id.chain);
  EXPECT_EQ(bpmf::new_chain_id().size(), 32u);
  EXPECT_NE(bpmf::new_chain_id(), bpmf::new_chain_id());

  const std::string path = bpmf::checkpoint_path(dir_);
  std::string bytes = bpmf::read_whole_file(path);
  bpmf::write_file_durably(path, bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(error_of(dir_, id).find("corrupt"), std::string::npos);
  bytes[bytes.size() / 2] ^= 1;
  bpmf::write_file_durably(path, bytes);
  EXPECT_NE(error_of(dir_, id).find("corrupt"), std::string::npos);
  bpmf::write_file_durably(path, "not a checkpoint at all");
  EXPECT_NE(error_of(dir_, id).find("is not a hympi-bpmf checkpoint"), std::string::npos);
  EXPECT_NE(error_of(dir_ + "/missing", id).find("cannot open"), std::string::npos);
}

TEST_F(CheckpointFiles, NpyRoundTripAndLayout) {
  const double values[6] = {1, 2, 3, 4, 5, 6};
  const std::string path = dir_ + "/m.npy";
  bpmf::write_npy(path, values, 2, 3);
  const auto m = bpmf::read_npy(path);
  EXPECT_EQ(m.rows, 2);
  EXPECT_EQ(m.cols, 3);
  EXPECT_EQ(m.values, std::vector<double>(values, values + 6));
  const std::string bytes = bpmf::read_whole_file(path);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ((bytes.size() - 6 * sizeof(double)) % 64, 0u) << "the header is padded to 64 bytes";
  EXPECT_NE(bytes.find("'shape': (2, 3)"), std::string::npos);
  bpmf::write_file_durably(path, bytes.substr(0, bytes.size() - 8));
  EXPECT_THROW(bpmf::read_npy(path), bpmf::InputError);
}

}  // namespace
