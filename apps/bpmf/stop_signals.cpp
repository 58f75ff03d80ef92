#include "stop_signals.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <string>

#include "hympi/error.hpp"

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

}  // namespace

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

StopRequest agree_on_stop(MPI_Comm comm) {
  int stop[2] = {stop_requested, stop_signal};
  HYMPI_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, stop, 2, MPI_INT, MPI_MAX, comm));
  return {stop[0], stop[1]};
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

}  // namespace bpmf::app
