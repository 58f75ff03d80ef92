#include "machine_probe.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "hympi/error.hpp"
#include "tuning_file.hpp"

namespace hympi::hsumma::scalapack {

namespace {

constexpr int kTag = 4711;

// Best half round trip of `bytes` between ranks 0 and 1 of comm (others return 0).
double half_round_trip(MPI_Comm comm, int rank, std::size_t bytes, int reps) {
  std::vector<char> buf(bytes);
  const int count = static_cast<int>(bytes);
  double best = 1e30;
  for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
    const double t0 = MPI_Wtime();
    if (rank == 0) {
      HYMPI_CHECK_MPI(MPI_Send(buf.data(), count, MPI_BYTE, 1, kTag, comm));
      HYMPI_CHECK_MPI(MPI_Recv(buf.data(), count, MPI_BYTE, 1, kTag, comm, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
      HYMPI_CHECK_MPI(MPI_Recv(buf.data(), count, MPI_BYTE, 0, kTag, comm, MPI_STATUS_IGNORE));
      HYMPI_CHECK_MPI(MPI_Send(buf.data(), count, MPI_BYTE, 0, kTag, comm));
    }
    if (r >= 0) best = std::min(best, (MPI_Wtime() - t0) / 2);
  }
  return rank <= 1 ? best : 0.0;
}

double dgemm_rate() {
  const int n = 256;
  std::vector<double> a(n * n, 0.5), b(n * n, 0.25), c(n * n, 0.0);
  double best = 1e30;
  for (int r = 0; r < 3; ++r) {
    const double t0 = MPI_Wtime();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    best = std::min(best, MPI_Wtime() - t0);
  }
  return 2.0 * n * n * n / std::max(best, 1e-9);
}

}  // namespace

model::Machine probe_machine(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  require(size >= 2, "the groups=auto probe needs >= 2 ranks");
  const std::size_t large = std::size_t{1} << 20;
  double v[3] = {0, 0, 0};
  v[0] = std::max(half_round_trip(comm, rank, 8, 50), 1e-9);
  v[1] = std::max((half_round_trip(comm, rank, large, 5) - v[0]) / large, 1e-13);
  if (rank == 0) v[2] = dgemm_rate();
  HYMPI_CHECK_MPI(MPI_Bcast(v, 3, MPI_DOUBLE, 0, comm));
  model::Machine mc;
  mc.alpha = v[0], mc.beta = v[1], mc.gamma = v[2];
  return mc;
}

model::Machine agreed_machine(MPI_Comm comm) {
  static std::optional<model::Machine> known;  // rank 0's memory (per process)
  static bool warned = false;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string path = tuning_file_path();
  double v[4] = {0, 0, 0, 0};  // have, alpha, beta, gamma
  if (rank == 0) {
    if (!known && !path.empty()) known = read_tuning_file(path);
    if (known) v[0] = 1, v[1] = known->alpha, v[2] = known->beta, v[3] = known->gamma;
  }
  HYMPI_CHECK_MPI(MPI_Bcast(v, 4, MPI_DOUBLE, 0, comm));
  if (v[0] == 0) {
    const model::Machine mc = probe_machine(comm);
    if (rank == 0) {
      known = mc;
      const std::string error =
          path.empty() ? "no HYMPI_TUNING_FILE, XDG_CACHE_HOME or HOME" : write_tuning_file(path, mc);
      if (!error.empty() && !warned)
        std::fprintf(stderr, "hympi pdgemm: tuning file not saved (%s); measuring again in every run\n", error.c_str()),
            warned = true;
    }
    return mc;
  }
  model::Machine mc;
  mc.alpha = v[1], mc.beta = v[2], mc.gamma = v[3];
  return mc;
}

}  // namespace hympi::hsumma::scalapack
