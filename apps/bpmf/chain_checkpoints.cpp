#include "chain_checkpoints.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bpmf/matrix_market.hpp"
#include "hympi/error.hpp"
#include "on_root.hpp"

namespace bpmf::app {

namespace {

volatile std::sig_atomic_t terminate_requested = 0;

extern "C" void on_sigterm(int) {
  terminate_requested = 1;
}

}  // namespace

ChainCheckpoints::ChainCheckpoints(const Options& o, const Dataset& data, MPI_Comm comm) : o_(o), comm_(comm) {
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank_));
  if (o.checkpoint_every > 0 || !o.resume.empty()) id_ = chain_identity(data.training(), data.test, o.sampler);
  if (o.checkpoint_every > 0) {
    on_root(comm, rank_, [&] {
      // A new chain never overwrites another's checkpoint: that one may be all a long run left.
      if (o.resume.empty() && std::filesystem::exists(checkpoint_path(o.checkpoint_dir)))
        throw InputError("'" + checkpoint_path(o.checkpoint_dir) + "' exists: continue it with --resume " +
                         o.checkpoint_dir + ", or remove it to start a new chain");
      std::filesystem::create_directories(o.checkpoint_dir);
    });
    std::signal(SIGTERM, on_sigterm);
  }
}

void ChainCheckpoints::resume(Sampler& sampler) const {
  if (o_.resume.empty()) return;
  ChainState state;
  on_root(comm_, rank_, [&] { state = read_checkpoint(o_.resume, id_); });
  broadcast(state, comm_);
  sampler.restore(state);
  if (rank_ == 0)
    std::printf("resumed from %s at iteration %d of %d\n", checkpoint_path(o_.resume).c_str(), state.iteration,
                sampler.total_iterations());
}

void ChainCheckpoints::write(const Sampler& sampler) const {
  const ChainState state = sampler.gather_state(0);
  on_root(comm_, rank_, [&] { write_checkpoint(o_.checkpoint_dir, id_, state); });
}

bool ChainCheckpoints::after_iteration(const Sampler& sampler) const {
  const int it = sampler.iteration();
  if (it == o_.stop_after) std::_Exit(kStoppedHard);
  if (o_.checkpoint_every <= 0) return false;
  int stop = terminate_requested;
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, comm_));
  if (stop || it % o_.checkpoint_every == 0 || it == sampler.total_iterations()) write(sampler);
  if (stop && rank_ == 0)
    std::printf("stopped by SIGTERM after iteration %d; checkpoint in %s: continue with --resume %s\n", it,
                checkpoint_path(o_.checkpoint_dir).c_str(), o_.checkpoint_dir.c_str());
  return stop != 0;
}

}  // namespace bpmf::app
