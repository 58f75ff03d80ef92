// Checkpoint and resume for hympi-bpmf: --resume DIR restores the chain (refused,
// on every rank, when the checkpoint belongs to another chain); --checkpoint-every
// N writes it to --checkpoint-dir every N iterations, at the end, and when SIGTERM
// reaches any rank (the batch system's time limit): the run then stops after the
// current iteration. --stop-after N exits hard after iteration N, like a SIGKILL
// between two checkpoints (for tests).
#pragma once
#include <mpi.h>

#include "bpmf/checkpoint.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf_options.hpp"
#include "load_data.hpp"

namespace bpmf::app {

// Exit code of --stop-after (no MPI_Finalize: as abrupt as a kill).
inline constexpr int kStoppedHard = 9;

class ChainCheckpoints {
 public:
  // Collective; before data.release_train(). Makes the checkpoint directory and
  // catches SIGTERM when checkpoints are on.
  ChainCheckpoints(const Options& o, const Dataset& data, MPI_Comm comm);
  // Collective: continues the checkpoint of --resume, if given.
  void resume(Sampler& sampler) const;
  // Collective, after each iteration. True when SIGTERM reached some rank: the
  // checkpoint is written and the run must stop.
  bool after_iteration(const Sampler& sampler) const;

 private:
  void write(const Sampler& sampler) const;
  const Options& o_;
  MPI_Comm comm_;
  int rank_ = 0;
  ChainIdentity id_;
};

}  // namespace bpmf::app
