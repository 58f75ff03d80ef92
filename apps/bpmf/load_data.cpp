#include "load_data.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include "app.hpp"
#include "bpmf/matrix_market.hpp"
#include "hympi/error.hpp"

namespace bpmf::app {

namespace {

std::string synthetic_name(const SyntheticSpec& s) {
  std::ostringstream n;
  n << "synthetic-" << s.rows << "x" << s.cols << "-rank" << s.rank << "-density" << s.density << "-noise" << s.noise
    << "-seed" << s.seed;
  return n.str();
}

}  // namespace

void broadcast_ratings(Ratings& r, MPI_Comm comm) {
  long long head[3] = {r.rows, r.cols, static_cast<long long>(r.entries.size())};
  HYMPI_CHECK_MPI(MPI_Bcast(head, 3, MPI_LONG_LONG, 0, comm));
  r.rows = head[0];
  r.cols = head[1];
  r.entries.resize(static_cast<std::size_t>(head[2]));
  // Entries are plain bytes; chunks keep the count within an int.
  auto* bytes = reinterpret_cast<char*>(r.entries.data());
  const long long total = head[2] * static_cast<long long>(sizeof(Entry));
  const long long chunk = 1LL << 30;
  for (long long off = 0; off < total; off += chunk)
    HYMPI_CHECK_MPI(MPI_Bcast(bytes + off, static_cast<int>(std::min(chunk, total - off)), MPI_BYTE, 0, comm));
}

TrainingInput Dataset::training() const {
  if (!synthetic) return training_input(train, train_mean);  // load_dataset's mean_value
  const SyntheticSpec spec = *synthetic;
  return {train.rows, train.cols, static_cast<std::int64_t>(train_count), train_mean,
          [spec](const std::function<void(const Entry&)>& emit) {
            for_each_synthetic(spec, [&emit](const Entry& e, bool held_out) {
              if (!held_out) emit(e);
            });
          }};
}

void Dataset::release_train() {
  std::vector<Entry>().swap(train.entries);
}

Dataset load_dataset(const InputSpec& spec, MPI_Comm comm) {
  int rank = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  Dataset d;
  if (spec.train.empty()) {
    // Deterministic: every rank makes the same pass (and the same verdict on a bad
    // spec), keeping the test entries and the training count and sum in file order
    // (mean_value's bits); the training entries are streamed again into the node copy.
    d.train.rows = d.test.rows = spec.synthetic.rows;
    d.train.cols = d.test.cols = spec.synthetic.cols;
    double sum = 0.0;
    for_each_synthetic(spec.synthetic, [&](const Entry& e, bool test) {
      if (test) {
        d.test.entries.push_back(e);
      } else {
        sum += e.value;
        ++d.train_count;
      }
    });
    d.train_mean = d.train_count == 0 ? 0.0 : sum / static_cast<double>(d.train_count);
    d.synthetic = spec.synthetic;
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
  hympi::apps::agree_on_success(comm, error);
  broadcast_ratings(d.train, comm);
  broadcast_ratings(d.test, comm);
  d.name = spec.train + " | " + spec.test;
  d.train_count = d.train.entries.size();
  d.train_mean = mean_value(d.train);
  return d;
}

}  // namespace bpmf::app
