#include "chain_checkpoints.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"
#include "hympi/error.hpp"
#include "on_root.hpp"
#include "stop_signals.hpp"

namespace bpmf::app {

namespace {

bool same_directory(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec);
}

}  // namespace

ChainCheckpoints::ChainCheckpoints(const Options& o, const Dataset& data, const ModelInfo& model, MPI_Comm comm)
    : o_(o), comm_(comm) {
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank_));
  if (o.checkpoint_every > 0 || !o.resume.empty() || o.save_samples_every > 0)
    on_root(comm, rank_, [&] { claim_directories(data, model); });
}

// Rank 0 only (inside on_root: a refusal becomes every rank's exit 2).
void ChainCheckpoints::claim_directories(const Dataset& data, const ModelInfo& model) {
  const bool checkpointing = o_.checkpoint_every > 0, resuming = !o_.resume.empty();
  id_ = chain_identity(data.training(), data.test, o_.sampler);
  // The lock first: what is read below cannot change under it.
  if (checkpointing) checkpoint_lock_ = DirectoryLock(o_.checkpoint_dir, "(starting)");
  // A chain killed while writing its checkpoint left a temporary as large as one.
  if (checkpoint_lock_.held())
    if (const int n = remove_leftover_temporaries(checkpoint_path(o_.checkpoint_dir)))
      std::printf("removed %d temporary checkpoint file(s) of a chain killed while writing in %s\n", n,
                  o_.checkpoint_dir.c_str());
  if (resuming) resumed_ = read_checkpoint(o_.resume, id_, &id_.chain);  // this chain's data and model; adopts its id
  // A chain checkpointed before chain ids (HYBPMFC1) gets one now; its samples'
  // model.txt, from the same version, names no chain (adopted if it describes this chain).
  const bool before_chain_ids = resuming && id_.chain.empty();
  if (id_.chain.empty()) id_.chain = new_chain_id();
  checkpoint_lock_.describe(id_.chain);
  if (checkpointing && std::filesystem::exists(checkpoint_path(o_.checkpoint_dir))) {
    // A new chain never overwrites a checkpoint: it may be all a long run left.
    if (!resuming)
      throw InputError("'" + checkpoint_path(o_.checkpoint_dir) + "' exists: continue it with --resume " +
                       o_.checkpoint_dir + ", or remove it to start a new chain");
    if (!same_directory(o_.resume, o_.checkpoint_dir)) read_checkpoint(o_.checkpoint_dir, id_);  // same chain only
  }
  if (o_.save_samples_every > 0) {
    if (!(checkpointing && same_directory(o_.samples_dir, o_.checkpoint_dir)))
      samples_lock_ = DirectoryLock(o_.samples_dir, id_.chain);
    // Samples of two chains in one directory would be averaged together by predict.
    std::string owner;
    const bool has_model = model_chain(o_.samples_dir, owner);
    const bool ours = owner == id_.chain || (before_chain_ids && owner.empty());
    if (has_model ? !ours : holds_samples(o_.samples_dir))
      throw InputError("'" + o_.samples_dir + "' holds the samples of another run (chain " +
                       (owner.empty() ? std::string("unknown") : owner) + ", this run chain " + id_.chain +
                       "): choose another --samples-dir or remove them");
    ModelInfo this_model = model;
    this_model.data_hash = id_.data_hash;
    // A model.txt without a chain id is adopted on its word alone: it must describe
    // this very chain, or its samples would be averaged with ours and it rewritten.
    if (has_model)
      if (const std::string differs = model_difference(read_model_info(o_.samples_dir), this_model); !differs.empty())
        throw InputError("'" + o_.samples_dir + "' holds the samples of another run (model.txt: " + differs +
                         "): choose another --samples-dir or remove them");
    write_model_info(o_.samples_dir, this_model, id_.chain);
  }
}

void ChainCheckpoints::resume(Sampler& sampler) {
  if (o_.resume.empty()) return;
  broadcast(resumed_, comm_);
  sampler.restore(resumed_);
  if (rank_ == 0)
    std::printf("resumed chain %s from %s at iteration %d of %d\n", id_.chain.c_str(),
                checkpoint_path(o_.resume).c_str(), resumed_.iteration, sampler.total_iterations());
  resumed_ = ChainState();
}

void ChainCheckpoints::record_calibration(const ModelInfo& model) {
  if (o_.save_samples_every <= 0 || model.calibration_ratings <= 0) return;
  ModelInfo this_model = model;
  this_model.data_hash = id_.data_hash;
  keep_locks();
  write_model_info(o_.samples_dir, this_model, id_.chain);
}

void ChainCheckpoints::keep_locks() {
  for (DirectoryLock* lock : {&checkpoint_lock_, &samples_lock_})
    if (lock->relock_if_removed(id_.chain))
      std::fprintf(stderr, "hympi-bpmf: warning: %s was removed while chain %s ran: locked again\n",
                   lock_path(lock == &checkpoint_lock_ ? o_.checkpoint_dir : o_.samples_dir).c_str(),
                   id_.chain.c_str());
}

void ChainCheckpoints::write(const Sampler& sampler) {
  const ChainState state = sampler.gather_state(0);
  on_root(comm_, rank_, [&] {
    keep_locks();
    write_checkpoint(o_.checkpoint_dir, id_, state);
  });
}

bool ChainCheckpoints::after_iteration(const Sampler& sampler) {
  const int it = sampler.iteration();
  if (it == o_.stop_after) std::_Exit(kStoppedHard);
  if (o_.checkpoint_every <= 0) return false;
  const StopRequest stop = agree_on_stop(comm_);
  if (stop.requested || it % o_.checkpoint_every == 0 || it == sampler.total_iterations()) write(sampler);
  if (stop.requested && rank_ == 0) {
    std::printf("stopped by %s after iteration %d; checkpoint in %s: continue with --resume %s\n",
                signal_name(stop.signal), it, checkpoint_path(o_.checkpoint_dir).c_str(), o_.checkpoint_dir.c_str());
    std::fflush(stdout);
  }
  return stop.requested != 0;
}

}  // namespace bpmf::app
