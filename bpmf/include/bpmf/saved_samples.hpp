// Saved samples of a BPMF chain, for predictions after the run. A directory holds
//   model.txt            "key = value" lines: format, K, alpha, mean (the training
//                        mean added to every u.v), rows, cols, seed, burnin, data
//                        (the data hash as 16 hex digits; since 2026-11-29), chain
//                        (the id of the chain whose samples these are), noise
//                        (fixed | adaptive; since 2026-11-29, none = fixed). Adaptive
//                        noise: format hympi-bpmf-samples-2 (older readers refuse
//                        it), alpha is the chain's starting precision, and
//                        sn_init, sn_max are the option's values. With a calibration
//                        holdout (--calibrate, since 2026-11-29): calibrate (the
//                        fraction, part of the chain: compared like the seed) and, once
//                        the run has ended, calibration_ratings, multiplier_68 and
//                        multiplier_95 (calibration.hpp: the calibrated intervals are
//                        mean +- multiplier * std), calibrated_std (noise | latent: the
//                        --predictive-std the multipliers multiply) and
//                        calibration_samples (the samples that std came from)
//   chain.lock           held by the chain writing here (directory_lock.hpp)
//   sample-NNNNNN-U.npy  rows x K latent row vectors of post-burn-in sample NNNNNN (1-based)
//   sample-NNNNNN-V.npy  cols x K latent column vectors
//   sample-NNNNNN-mu_U.npy, -Lambda_U.npy, -mu_V.npy, -Lambda_V.npy
//                        the hyperparameters drawn for that sample (1 x K, K x K)
//   sample-NNNNNN-alpha.npy  the sample's noise precision (1 x 1; since 2026-11-29,
//                        required with adaptive noise: predict mixes 1 / alpha_s)
// (.npy: npy.hpp). The prediction of (i, j) in a sample is mean + U[i] . V[j].
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "bpmf/noise.hpp"
#include "bpmf/normal_wishart.hpp"
#include "bpmf/predictive.hpp"

namespace bpmf {

struct ModelInfo {
  int K = 0;
  double alpha = 0.0, mean = 0.0;
  std::int64_t rows = 0, cols = 0;
  std::uint64_t seed = 0;
  int burnin = 0;
  std::uint64_t data_hash = 0;  // of the training and test data (checkpoint.hpp); 0: not recorded
  NoiseKind noise = NoiseKind::fixed;
  double sn_init = 0.0, sn_max = 0.0;  // adaptive noise
  double calibrate = 0.0;              // the calibration holdout's fraction (0: none)
  // Written once the chain has ended (0 ratings: not yet, or no holdout).
  std::int64_t calibration_ratings = 0;
  double multiplier_68 = 0.0, multiplier_95 = 0.0;
  // The std they multiply and the samples it came from (unknown, 0: written before these keys).
  std::optional<PredictiveStd> calibrated_std{};
  std::int64_t calibration_samples = 0;
};  // plain bytes: predict broadcasts it as such
static_assert(std::is_trivially_copyable_v<ModelInfo>);

// Writes model.txt (making the directory) for the chain `chain` (checkpoint.hpp's
// chain id). Throws InputError.
void write_model_info(const std::string& dir, const ModelInfo& info, const std::string& chain);
// Reads model.txt; throws InputError naming the file and the missing or bad key (a
// value must be read whole and fit its field: "4abc" is not K = 4).
ModelInfo read_model_info(const std::string& dir);
// The first field in which `found` (a model.txt) differs from `expected`, as
// "seed 1, this run seed 3"; empty if none. The data hashes are compared when both are known.
std::string model_difference(const ModelInfo& found, const ModelInfo& expected);
// Whether `dir` has a model.txt, and the chain id it names ("" if none).
bool model_chain(const std::string& dir, std::string& chain);

// Writes the files of post-burn-in sample `index`. U and V item-major.
void save_sample(const std::string& dir, int index, const ModelInfo& info, const double* U, const double* V,
                 const Hyper& rows, const Hyper& cols, double alpha);
// The noise precision of sample `index` (its -alpha.npy); throws InputError.
double read_sample_precision(const std::string& dir, int index);

// Whether `dir` holds any sample file (false also when it does not exist).
bool holds_samples(const std::string& dir);
// The indices of the samples in `dir`, ascending; throws InputError when there are none
// or one misses a file (the -alpha file only when `noise` is adaptive).
std::vector<int> saved_sample_indices(const std::string& dir, NoiseKind noise = NoiseKind::fixed);
// "dir/sample-NNNNNN-" + what + ".npy"
std::string sample_file(const std::string& dir, int index, const std::string& what);

}  // namespace bpmf
