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

// Adaptive noise (issue 53): the identity's noise and the drawn precision with its sums
// read back (HYBPMFC4); another noise is refused; a HYBPMFC3 file (SN meant SN / var)
// is refused for adaptive noise and read for fixed noise; a HYBPMFC2 file (written
// before adaptive noise) reads as a fixed-noise chain at its alpha.
TEST_F(CheckpointFiles, NoiseStateAndOlderFormat) {
  auto id = small_identity();
  id.alpha = 0.0;
  id.noise = bpmf::NoiseKind::adaptive;
  id.sn_init = 1.0;
  id.sn_max = 10.0;
  auto state = small_state();
  state.alpha = 3.25;
  state.precision_sum = 6.5;
  state.inverse_precision_sum = 0.625;
  bpmf::write_checkpoint(dir_, id, state);
  EXPECT_EQ(bpmf::read_whole_file(bpmf::checkpoint_path(dir_)).substr(0, 8), "HYBPMFC4");
  const auto back = bpmf::read_checkpoint(dir_, id);
  EXPECT_EQ(back.alpha, 3.25);
  EXPECT_EQ(back.precision_sum, 6.5);
  EXPECT_EQ(back.inverse_precision_sum, 0.625);
  EXPECT_EQ(back.U, state.U);
  auto fixed = small_identity();
  EXPECT_NE(error_of(dir_, fixed).find("other noise: checkpoint noise adaptive:1,10, this run noise fixed:2"),
            std::string::npos)
      << error_of(dir_, fixed);
  auto wider = id;
  wider.sn_max = 20.0;
  EXPECT_NE(error_of(dir_, wider).find("this run noise adaptive:1,20"), std::string::npos);

  // The same bytes as HYBPMFC3 (its checksum renewed): adaptive refused, fixed read.
  const auto as_c3 = [this]() {
    std::string bytes = bpmf::read_whole_file(bpmf::checkpoint_path(dir_));
    bytes[7] = '3';
    bytes.resize(bytes.size() - 8);
    const std::uint64_t sum = bpmf::checkpoint_checksum(bytes.data(), bytes.size());
    bytes.append(reinterpret_cast<const char*>(&sum), sizeof sum);
    bpmf::write_file_durably(bpmf::checkpoint_path(dir_), bytes);
  };
  as_c3();
  EXPECT_NE(error_of(dir_, id).find("format HYBPMFC3, whose SN_INIT and SN_MAX meant the precisions SN / var"),
            std::string::npos)
      << error_of(dir_, id);
  bpmf::write_checkpoint(dir_, fixed, state);
  as_c3();
  EXPECT_EQ(bpmf::read_checkpoint(dir_, fixed).U, state.U);

  // HYBPMFC2 by hand: magic, chain id, identity up to alpha, counts, arrays, checksum.
  std::string c2("HYBPMFC2");
  const auto put = [&c2](auto v) { c2.append(reinterpret_cast<const char*>(&v), sizeof v); };
  c2 += fixed.chain;
  put(fixed.data_hash), put(fixed.rows), put(fixed.cols), put(fixed.test_entries), put(fixed.K);
  put(fixed.burnin), put(fixed.seed), put(fixed.alpha), put(std::int64_t{7}), put(std::int64_t{2});
  for (const auto* v : {&state.U, &state.V, &state.prediction_sum, &state.moment_mean, &state.moment_m2}) {
    put(static_cast<std::int64_t>(v->size()));
    c2.append(reinterpret_cast<const char*>(v->data()), v->size() * sizeof(double));
  }
  put(bpmf::checkpoint_checksum(c2.data(), c2.size()));
  bpmf::write_file_durably(bpmf::checkpoint_path(dir_), c2);
  const auto old = bpmf::read_checkpoint(dir_, fixed);
  EXPECT_EQ(old.iteration, 7);
  EXPECT_EQ(old.alpha, 2.0);
  EXPECT_EQ(old.moment_m2, state.moment_m2);
  EXPECT_NE(error_of(dir_, id).find("other noise: checkpoint noise fixed:2, this run noise adaptive:1,10"),
            std::string::npos);
}

// A calibration holdout (--calibrate, issue 53) is part of the chain: written as
// HYBPMFC5 with the fraction, read back; another fraction or none is refused; without
// one the file stays HYBPMFC4 (readable by the versions before). Caught: the fraction
// not compared, HYBPMFC5 for every chain.
TEST_F(CheckpointFiles, CalibrationFraction) {
  auto id = small_identity();
  id.calibrate = 0.05;
  const auto state = small_state();
  bpmf::write_checkpoint(dir_, id, state);
  EXPECT_EQ(bpmf::read_whole_file(bpmf::checkpoint_path(dir_)).substr(0, 8), "HYBPMFC5");
  EXPECT_EQ(bpmf::read_checkpoint(dir_, id).moment_m2, state.moment_m2);
  auto other = id;
  other.calibrate = 0.1;
  EXPECT_NE(error_of(dir_, other)
                .find("other calibration holdout: checkpoint --calibrate 0.050000, this run "
                      "--calibrate 0.100000"),
            std::string::npos)
      << error_of(dir_, other);
  const auto none = small_identity();
  EXPECT_NE(error_of(dir_, none).find("this run --calibrate 0.000000"), std::string::npos) << error_of(dir_, none);
  bpmf::write_checkpoint(dir_, none, state);
  EXPECT_EQ(bpmf::read_whole_file(bpmf::checkpoint_path(dir_)).substr(0, 8), "HYBPMFC4");
  EXPECT_NE(error_of(dir_, id).find("checkpoint --calibrate 0.000000, this run --calibrate 0.050000"),
            std::string::npos);
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
