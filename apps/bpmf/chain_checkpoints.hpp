// The directories of a hympi-bpmf chain and its checkpoints. A chain has an id
// (checkpoint.hpp), drawn when it starts and read back from its checkpoint by
// --resume; it is stored in the checkpoint and in the samples' model.txt. While it
// runs, rank 0 holds chain.lock (directory_lock.hpp) in the --checkpoint-dir and
// the --samples-dir it writes into. Refused (exit 2, the same message on every
// rank): a directory held by a running chain; a new chain on a directory holding a
// checkpoint or samples; a resume into a --checkpoint-dir or --samples-dir holding
// another chain's files; a checkpoint of another chain (data, K, alpha, burn-in, seed).
//
// --checkpoint-every N writes the checkpoint every N iterations, at the end, and when
// SIGTERM, SIGINT or SIGUSR1 reaches any rank (stop_signals.hpp): the run then stops
// after the current iteration (exit 1). Under Open MPI's mpirun a rank also takes a SIGCONT from its
// launcher (mpirun or orted) as the stop request: mpirun sends it at once to every
// rank when it is told to stop, while its SIGTERM follows a second later and a second
// signal to mpirun kills the ranks at once (see README "Stopping a chain").
// --stop-after N exits hard after iteration N, like a SIGKILL between two
// checkpoints (for tests).
#pragma once
#include <mpi.h>

#include <string>

#include "bpmf/checkpoint.hpp"
#include "bpmf/directory_lock.hpp"
#include "bpmf/sampler.hpp"
#include "bpmf/saved_samples.hpp"
#include "bpmf_options.hpp"
#include "load_data.hpp"

namespace bpmf::app {

// Exit code of --stop-after (no MPI_Finalize: as abrupt as a kill).
inline constexpr int kStoppedHard = 9;

class ChainCheckpoints {
 public:
  // Collective; before data.release_train(). Claims the directories (locks,
  // ownership; writes model.txt when samples are saved) and reads the --resume
  // checkpoint. The stop signals are caught earlier (stop_signals.hpp).
  ChainCheckpoints(const Options& o, const Dataset& data, const ModelInfo& model, MPI_Comm comm);
  // Collective: continues the checkpoint of --resume, if given.
  void resume(Sampler& sampler);
  // Collective, after each iteration. True when a stop signal reached some rank:
  // the checkpoint is written and the run must stop.
  bool after_iteration(const Sampler& sampler);
  // Rank 0, before each write into the chain's directories: a chain.lock removed
  // while the chain runs is locked again (a warning); throws InputError when another
  // chain has taken the directory since.
  void keep_locks();
  // Rank 0, once the chain has ended: the samples' model.txt rewritten with the
  // calibration's multipliers (when samples are saved and the model has them).
  void record_calibration(const ModelInfo& model);
  // The chain id on rank 0 ("" elsewhere, or when no checkpoint or sample is involved).
  const std::string& chain() const { return id_.chain; }

 private:
  void claim_directories(const Dataset& data, const ModelInfo& model);
  void write(const Sampler& sampler);
  const Options& o_;
  MPI_Comm comm_;
  int rank_ = 0;
  ChainIdentity id_;
  ChainState resumed_;  // rank 0: the --resume checkpoint until resume()
  DirectoryLock checkpoint_lock_, samples_lock_;
};

}  // namespace bpmf::app
