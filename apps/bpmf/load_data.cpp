#include "load_data.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "bpmf/matrix_market.hpp"

namespace bpmf::app {

namespace {

void broadcast_string(std::string& s, MPI_Comm comm) {
  long long n = static_cast<long long>(s.size());
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
  s.resize(static_cast<std::size_t>(n));
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
}

void broadcast_ratings(Ratings& r, MPI_Comm comm) {
  long long head[3] = {r.rows, r.cols, static_cast<long long>(r.entries.size())};
  MPI_Bcast(head, 3, MPI_LONG_LONG, 0, comm);
  r.rows = head[0];
  r.cols = head[1];
  r.entries.resize(static_cast<std::size_t>(head[2]));
  // Entries are plain bytes; chunks keep the count within an int.
  auto* bytes = reinterpret_cast<char*>(r.entries.data());
  const long long total = head[2] * static_cast<long long>(sizeof(Entry));
  const long long chunk = 1LL << 30;
  for (long long off = 0; off < total; off += chunk)
    MPI_Bcast(bytes + off, static_cast<int>(std::min(chunk, total - off)), MPI_BYTE, 0, comm);
}

std::string synthetic_name(const SyntheticSpec& s) {
  std::ostringstream n;
  n << "synthetic-" << s.rows << "x" << s.cols << "-rank" << s.rank << "-density" << s.density << "-noise" << s.noise
    << "-seed" << s.seed;
  return n.str();
}

}  // namespace

Dataset load_dataset(const InputSpec& spec, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Dataset d;
  if (spec.train.empty()) {
    // Cheap and deterministic: every rank generates the same data, no broadcast needed.
    try {
      auto data = generate_synthetic(spec.synthetic);
      d.train = std::move(data.train);
      d.test = std::move(data.test);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(e.what());
    }
    d.name = synthetic_name(spec.synthetic);
    return d;
  }

  std::string error;
  if (rank == 0) {
    try {
      d.train = read_matrix_market(spec.train);
      d.test = read_matrix_market(spec.test);
      check_test_within_train(d.train, d.test, spec.test);
      if (d.train.entries.empty()) throw InputError("'" + spec.train + "' has no entries to train on");
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  broadcast_string(error, comm);
  if (!error.empty()) throw std::runtime_error(error);
  broadcast_ratings(d.train, comm);
  broadcast_ratings(d.test, comm);
  d.name = spec.train + " | " + spec.test;
  return d;
}

}  // namespace bpmf::app
