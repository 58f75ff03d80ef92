// Input for the BPMF driver: rank 0 reads the Matrix Market files and broadcasts
// them, so an input error is seen once and raised on every rank with the same
// message. Synthetic data are streamed: every rank keeps only the test entries, and
// the training entries are generated again where the node copy is built.
#pragma once
#include <mpi.h>

#include <optional>
#include <string>

#include "bpmf/ratings.hpp"
#include "bpmf/synthetic.hpp"
#include "bpmf/training_matrix.hpp"

namespace bpmf::app {

struct InputSpec {
  std::string train, test;  // empty: synthetic
  SyntheticSpec synthetic;
};

struct Dataset {
  Ratings train, test;          // synthetic: train has its shape but no entries
  std::string name;             // file names or "synthetic-RxC-..."
  std::size_t train_count = 0;  // entries of train, still known once train is released
  double train_mean = 0.0;      // mean_value of the training entries
  std::optional<SyntheticSpec> synthetic;
  // The training entries for the sampler: train's (which must then outlive the
  // input), or the generator replaying them.
  TrainingInput training() const;
  // Frees train's entries (the sampler holds its own copy: once per node under hybrid).
  void release_train();
};

// Collective: root 0's matrix on every rank of comm.
void broadcast_ratings(Ratings& r, MPI_Comm comm);

// Collective. Bad input throws hympi::Error(invalid_argument) with the same message
// on every rank.
Dataset load_dataset(const InputSpec& spec, MPI_Comm comm);

}  // namespace bpmf::app
