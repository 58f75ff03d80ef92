// Input for the BPMF driver: rank 0 reads the Matrix Market files (or every rank
// generates the synthetic data) and broadcasts them, so an input error is seen
// once and raised on every rank with the same message.
#pragma once
#include <mpi.h>

#include <string>

#include "bpmf/ratings.hpp"
#include "bpmf/synthetic.hpp"

namespace bpmf::app {

struct InputSpec {
  std::string train, test;  // empty: synthetic
  SyntheticSpec synthetic;
};

struct Dataset {
  Ratings train, test;
  std::string name;             // file names or "synthetic-RxC-..."
  std::size_t train_count = 0;  // entries of train, still known once train is released
  // Frees train's entries (the sampler holds its own copy: once per node under hybrid).
  void release_train();
};

// Collective: root 0's matrix on every rank of comm.
void broadcast_ratings(Ratings& r, MPI_Comm comm);

// Collective. Bad input throws hympi::Error(invalid_argument) with the same message
// on every rank.
Dataset load_dataset(const InputSpec& spec, MPI_Comm comm);

}  // namespace bpmf::app
