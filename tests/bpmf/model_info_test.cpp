// model.txt of a saved-samples directory: written and read back exactly; a value
// that does not round-trip - "4abc" (std::stoi read it as 4), a number past its
// field, a negative seed, a non-finite alpha - is refused naming the file and the
// field; model_difference names the first field in which two models differ.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/saved_samples.hpp"

namespace {

namespace fs = std::filesystem;

class ModelInfoFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "bpmf_model_" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    info_.K = 4;
    info_.alpha = 2.5;
    info_.mean = 0.1;  // not exact in binary: 17 digits must bring the same bits back
    info_.rows = 300;
    info_.cols = 200;
    info_.seed = 18446744073709551615ULL;
    info_.burnin = 5;
    info_.data_hash = 0x0123456789abcdefULL;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // model.txt as written, with the line of `key` replaced by "key = value".
  void write_with(const std::string& key, const std::string& value) {
    bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
    const std::string path = dir_ + "/model.txt";
    const std::string text = std::regex_replace(bpmf::read_whole_file(path), std::regex("(^|\n)" + key + " = [^\n]*"),
                                                "$1" + key + " = " + value);
    std::ofstream(path) << text;
  }
  std::string error() const {
    try {
      bpmf::read_model_info(dir_);
    } catch (const bpmf::InputError& e) {
      return e.what();
    }
    return "";
  }

  std::string dir_;
  bpmf::ModelInfo info_;
};

TEST_F(ModelInfoFile, RoundTrip) {
  bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
  const auto back = bpmf::read_model_info(dir_);
  EXPECT_EQ(bpmf::model_difference(back, info_), "");
  EXPECT_EQ(back.K, 4);
  EXPECT_EQ(back.mean, 0.1);
  EXPECT_EQ(back.seed, info_.seed);
  EXPECT_EQ(back.data_hash, info_.data_hash);
  EXPECT_NE(bpmf::read_whole_file(dir_ + "/model.txt").find("\ndata = 0123456789abcdef\n"), std::string::npos);
}

// --calibrate (issue 53): the fraction and, once the chain has ended, the multipliers
// read back exactly; the fraction is compared like the seed, the multipliers are not.
TEST_F(ModelInfoFile, Calibration) {
  info_.calibrate = 0.05;
  bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
  auto back = bpmf::read_model_info(dir_);
  EXPECT_EQ(back.calibrate, 0.05);
  EXPECT_EQ(back.calibration_ratings, 0);
  EXPECT_EQ(bpmf::model_difference(back, info_), "");
  info_.calibration_ratings = 2456;
  info_.multiplier_68 = 0.9071;
  info_.multiplier_95 = 1.9387;
  bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
  back = bpmf::read_model_info(dir_);
  EXPECT_EQ(back.calibration_ratings, 2456);
  EXPECT_EQ(back.multiplier_68, 0.9071);
  EXPECT_EQ(back.multiplier_95, 1.9387);
  EXPECT_FALSE(back.calibrated_std) << "written without the std: unknown (a model.txt of 2026-11-29)";
  for (auto kind : {bpmf::PredictiveStd::latent, bpmf::PredictiveStd::with_noise}) {
    info_.calibrated_std = kind;  // the std the multipliers multiply, and how many samples it came from
    info_.calibration_samples = 200;
    bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
    back = bpmf::read_model_info(dir_);
    ASSERT_TRUE(back.calibrated_std);
    EXPECT_EQ(*back.calibrated_std, kind);
    EXPECT_EQ(back.calibration_samples, 200);
  }
  EXPECT_NE(bpmf::read_whole_file(dir_ + "/model.txt").find("calibrated_std = noise\ncalibration_samples = 200\n"),
            std::string::npos);
  auto other = info_;
  other.calibrate = 0.1;
  other.multiplier_68 = 1.0;
  EXPECT_EQ(bpmf::model_difference(back, other),
            "calibrate 0.050000000000000003, this run calibrate 0.10000000000000001");
  info_.calibrate = 0.0;
  info_.calibration_ratings = 0;
  bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(bpmf::read_whole_file(dir_ + "/model.txt").find("calibrat"), std::string::npos)
      << "a chain without a holdout writes model.txt as before";
}

TEST_F(ModelInfoFile, WithoutDataHash) {  // as in a model.txt written before 2026-11-29
  info_.data_hash = 0;
  bpmf::write_model_info(dir_, info_, "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(bpmf::read_whole_file(dir_ + "/model.txt").find("data ="), std::string::npos);
  EXPECT_EQ(bpmf::read_model_info(dir_).data_hash, 0u);
}

struct BadValue {
  const char* key;
  const char* value;
  const char* expected;  // what the message says it must be
};

TEST_F(ModelInfoFile, ValuesThatDoNotRoundTripAreRefused) {
  const BadValue cases[] = {
      {"K", "4abc", "an integer within an int"},
      {"K", "2147483648", "an integer within an int"},
      {"K", " 4", "an integer within an int"},
      {"K", "", "an integer within an int"},
      {"burnin", "4abc", "an integer within an int"},
      {"burnin", "5.0", "an integer within an int"},
      {"rows", "300x", "a 64-bit integer"},
      {"rows", "9223372036854775808", "a 64-bit integer"},
      {"seed", "-1", "an integer from 0 to 2^64 - 1"},
      {"seed", "18446744073709551616", "an integer from 0 to 2^64 - 1"},
      {"alpha", "2.5abc", "a finite number"},
      {"alpha", "inf", "a finite number"},
      {"mean", "nan", "a finite number"},
      {"data", "0123456789abcdefg", "a 64-bit hexadecimal number"},
  };
  for (const BadValue& c : cases) {
    write_with(c.key, c.value);
    const std::string want = "'" + dir_ + "/model.txt': " + c.key + " = '" + c.value + "' is not " + c.expected;
    EXPECT_EQ(error(), want) << c.key << " = '" << c.value << "'";
  }
}

TEST_F(ModelInfoFile, DifferenceNamesTheField) {
  auto other = info_;
  other.seed = 1;
  EXPECT_EQ(bpmf::model_difference(other, info_), "seed 1, this run seed 18446744073709551615");
  other = info_;
  other.burnin = 4;
  EXPECT_EQ(bpmf::model_difference(other, info_), "burnin 4, this run burnin 5");
  other = info_;
  other.data_hash = 1;
  EXPECT_EQ(bpmf::model_difference(other, info_), "data 0000000000000001, this run data 0123456789abcdef");
  other.data_hash = 0;  // not recorded: the other fields decide
  EXPECT_EQ(bpmf::model_difference(other, info_), "");
  other.mean = 0.30000000000000004;
  EXPECT_EQ(bpmf::model_difference(other, info_), "mean 0.30000000000000004, this run mean 0.10000000000000001");
}

}  // namespace
