#include "chain_checkpoints.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"
#include "hympi/error.hpp"
#include "on_root.hpp"

namespace bpmf::app {

namespace {

volatile std::sig_atomic_t stop_requested = 0;
volatile std::sig_atomic_t stop_signal = 0;
pid_t launcher = -1;  // Open MPI's mpirun or orted, when it started this process

extern "C" void on_stop_signal(int sig) {
  stop_requested = 1;
  stop_signal = sig;
}

// Open MPI 4's mpirun, told to stop, sends SIGCONT to every rank at once, SIGTERM a
// second later and SIGKILL a second after that; a second signal to mpirun makes it
// exit at once and the ranks die without a SIGTERM. Its SIGCONT is the one early
// warning, so it counts as a stop request when it comes from the launcher.
extern "C" void on_sigcont(int, siginfo_t* info, void*) {
  if (info && info->si_pid == launcher) {
    stop_requested = 1;
    stop_signal = SIGCONT;
  }
}

// Whether the parent process is Open MPI's launcher (mpirun, mpiexec, orterun, orted:
// ORTE's names; MPICH's ranks run under hydra_pmi_proxy, which forwards SIGTERM itself).
bool parent_is_open_mpi_launcher() {
  std::ifstream comm("/proc/" + std::to_string(::getppid()) + "/comm");
  std::string name;
  std::getline(comm, name);
  for (const char* launcher_name : {"mpirun", "mpiexec", "orterun", "orted"})  // also mpirun.openmpi, ...
    if (name.rfind(launcher_name, 0) == 0) return true;
  return false;
}

void catch_stop_signals() {
  struct sigaction plain {};
  plain.sa_handler = on_stop_signal;
  // SA_RESTART: a stop request must not fail a blocked write (stdio drops the line
  // it was writing to a full pipe on EINTR) or any other system call.
  plain.sa_flags = SA_RESTART;
  sigemptyset(&plain.sa_mask);
  for (const int sig : {SIGTERM, SIGINT, SIGUSR1}) sigaction(sig, &plain, nullptr);
  if (parent_is_open_mpi_launcher()) {
    launcher = ::getppid();
    struct sigaction cont {};
    cont.sa_sigaction = on_sigcont;
    cont.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&cont.sa_mask);
    sigaction(SIGCONT, &cont, nullptr);
    // Two signals in quick succession (`timeout` sends one to mpirun and one to its
    // process group) make mpirun exit at once, before any SIGCONT; the ranks then
    // live about one more second, until Open MPI finds its daemon gone. The kernel's
    // parent-death signal is the warning left: it turns the launcher's death into a
    // SIGTERM here.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != launcher) stop_requested = 1;  // died before the prctl
  }
}

bool same_directory(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec);
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGCONT:
      return "SIGCONT from mpirun";
    default:
      return "a signal";
  }
}

}  // namespace

ChainCheckpoints::ChainCheckpoints(const Options& o, const Dataset& data, const ModelInfo& model, MPI_Comm comm)
    : o_(o), comm_(comm) {
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank_));
  if (o.checkpoint_every > 0 || !o.resume.empty() || o.save_samples_every > 0)
    on_root(comm, rank_, [&] { claim_directories(data, model); });
  if (o.checkpoint_every > 0) catch_stop_signals();
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
  int stop[2] = {stop_requested, stop_signal};
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, stop, 2, MPI_INT, MPI_MAX, comm_));
  if (stop[0] || it % o_.checkpoint_every == 0 || it == sampler.total_iterations()) write(sampler);
  if (stop[0] && rank_ == 0) {
    std::printf("stopped by %s after iteration %d; checkpoint in %s: continue with --resume %s\n", signal_name(stop[1]),
                it, checkpoint_path(o_.checkpoint_dir).c_str(), o_.checkpoint_dir.c_str());
    std::fflush(stdout);
  }
  return stop[0] != 0;
}

}  // namespace bpmf::app
