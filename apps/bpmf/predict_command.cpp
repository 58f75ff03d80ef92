#include "predict_command.hpp"

#include <mpi.h>

#include <cstdio>

#include "bpmf/checkpoint.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/npy.hpp"
#include "bpmf/predictive.hpp"
#include "bpmf/saved_samples.hpp"
#include "bpmf_report.hpp"
#include "hympi/error.hpp"
#include "load_data.hpp"
#include "on_root.hpp"

namespace bpmf::app {

namespace {

// Root 0 reads a latent matrix of the model, checks its shape; every rank gets it.
std::vector<double> load_latent(const std::string& path, std::int64_t items, int K, MPI_Comm comm, int rank) {
  std::vector<double> values;
  on_root(comm, rank, [&] {
    NpyMatrix m = read_npy(path);
    if (m.rows != items || m.cols != K)
      throw InputError("'" + path + "' is " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", not " +
                       std::to_string(items) + " x " + std::to_string(K));
    values = std::move(m.values);
  });
  broadcast_values(values, comm);
  return values;
}

std::vector<double> gather_blocks(const std::vector<double>& mine, std::size_t total, MPI_Comm comm, int rank,
                                  int size) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size, 0);
  HYMPI_CHECK_MPI(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm));
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> all(rank == 0 ? total : 0);
  HYMPI_CHECK_MPI(
      MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm));
  return all;
}

// model.txt's calibrated intervals, and a warning when they do not apply as recorded
// to these stds: calibrated on the other --predictive-std, or on more samples than
// are saved here (--save-samples-every > 1: a noisier std than the one calibrated).
void print_calibration(const ModelInfo& info, PredictiveStd kind, int samples) {
  if (info.calibration_ratings <= 0) return;
  const char* on = info.calibrated_std ? to_string(*info.calibrated_std) : "unknown (not recorded)";
  std::printf(
      "predict: calibrated intervals (model.txt: split conformal, %lld held-out training ratings, std %s, %lld "
      "samples): mean +- %.4f std at 68%%, mean +- %.4f std at 95%%\n",
      static_cast<long long>(info.calibration_ratings), on, static_cast<long long>(info.calibration_samples),
      info.multiplier_68, info.multiplier_95);
  if (!info.calibrated_std)
    std::printf(
        "predict: warning: model.txt does not say which std the multipliers were calibrated on: they apply only "
        "with the run's --predictive-std and all its samples saved\n");
  else if (*info.calibrated_std != kind)
    std::printf(
        "predict: warning: the multipliers were calibrated on the %s std, these stds are --predictive-std %s: "
        "the calibrated intervals do not apply to them (predict with --predictive-std %s)\n",
        on, to_string(kind), on);
  if (info.calibrated_std && info.calibration_samples != samples)
    std::printf(
        "predict: warning: the multipliers were calibrated on stds from %lld samples, these come from the %d "
        "saved (--save-samples-every > 1 or samples missing): the calibrated coverage is not guaranteed for them\n",
        static_cast<long long>(info.calibration_samples), samples);
}

}  // namespace

int run_predict(const Options& o) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size));
  const PredictOptions& p = o.predict;

  ModelInfo info;
  std::vector<int> indices;
  Ratings pairs;
  on_root(comm, rank, [&] {
    info = read_model_info(p.model);
    indices = saved_sample_indices(p.model, info.noise);
    pairs = read_matrix_market(p.pairs);
    Ratings shape;
    shape.rows = info.rows;
    shape.cols = info.cols;
    check_test_within_train(shape, pairs, p.pairs);
  });
  HYMPI_CHECK_MPI(MPI_Bcast(&info, sizeof info, MPI_BYTE, 0, comm));
  int count = static_cast<int>(indices.size());
  HYMPI_CHECK_MPI(MPI_Bcast(&count, 1, MPI_INT, 0, comm));
  indices.resize(count);
  HYMPI_CHECK_MPI(MPI_Bcast(indices.data(), count, MPI_INT, 0, comm));
  broadcast_ratings(pairs, comm);

  // A contiguous block of pairs per rank; the samples one at a time, in their order.
  const std::size_t n = pairs.entries.size();
  const std::size_t begin = n * rank / size, end = n * (rank + 1) / size;
  std::vector<double> sum(end - begin, 0.0);
  RunningMoments moments(end - begin);
  // The noise of the mixture: fixed, 1 / alpha; adaptive, 1 / alpha_s summed in sample
  // order as the sampler does (so every sample saved gives the run's bits).
  double inverse_precision_sum = 0.0;
  for (int s = 0; s < count; ++s) {
    if (info.noise == NoiseKind::adaptive) {
      double alpha = 0.0;
      on_root(comm, rank, [&] { alpha = read_sample_precision(p.model, indices[s]); });
      HYMPI_CHECK_MPI(MPI_Bcast(&alpha, 1, MPI_DOUBLE, 0, comm));
      inverse_precision_sum += 1.0 / alpha;
    }
    const auto U = load_latent(sample_file(p.model, indices[s], "U"), info.rows, info.K, comm, rank);
    const auto V = load_latent(sample_file(p.model, indices[s], "V"), info.cols, info.K, comm, rank);
    for (std::size_t k = begin; k < end; ++k) {
      const Entry& e = pairs.entries[k];
      const double x = predict_one(info.mean, U.data() + static_cast<std::int64_t>(e.row) * info.K,
                                   V.data() + static_cast<std::int64_t>(e.col) * info.K, info.K);
      sum[k - begin] += x;
      moments.add(k - begin, x, s + 1);
    }
  }
  const double noise_variance =
      info.noise == NoiseKind::fixed ? 1.0 / info.alpha : mixture_noise_variance(inverse_precision_sum, count);
  std::vector<double> mean(sum.size()), std(sum.size());
  for (std::size_t k = 0; k < sum.size(); ++k) {
    mean[k] = sum[k] / count;
    std[k] = predictive_std(moments.m2(k), count, noise_variance, o.std_kind);
  }
  const auto all_mean = gather_blocks(mean, n, comm, rank, size);
  const auto all_std = gather_blocks(std, n, comm, rank, size);
  on_root(comm, rank, [&] {
    Ratings out = pairs;
    for (std::size_t k = 0; k < n; ++k) out.entries[k].value = all_mean[k];
    write_matrix_market(p.mean_output, out, "hympi-bpmf predict: means over " + std::to_string(count) + " samples");
    for (std::size_t k = 0; k < n; ++k) out.entries[k].value = all_std[k];
    write_matrix_market(p.std_output, out,
                        std::string("hympi-bpmf predict: predictive std (") + to_string(o.std_kind) + ")");
    std::printf("predicted %zu pairs from %d samples of %s on %d ranks: %s, %s\n", n, count, p.model.c_str(), size,
                p.mean_output.c_str(), p.std_output.c_str());
    std::printf("predict: predictions digest %s, predictive std digest %s (bits: %s)\n", digest(all_mean).c_str(),
                digest(all_std).c_str(), bpmf::kBits);
    print_calibration(info, o.std_kind, count);
  });
  return hympi::apps::kSuccess;
}

}  // namespace bpmf::app
