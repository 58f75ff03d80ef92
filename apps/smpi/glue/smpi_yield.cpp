// SMPI runs all simulated ranks as cooperative user-level threads in one OS
// thread: a rank spinning on a node neighbour's flag (SyncKind::flags) never lets
// that neighbour run, and sched_yield() yields only the OS thread. Linked into
// every SMPI binary, this installs the core's idle function (hympi::set_idle_function)
// as a short *simulated* sleep: it hands control to the other simulated ranks and
// lets simulated time advance. A flag poll costs the platform's hympi_flag_poll_us
// (a cache-line transfer between cores, onnode_cost.cpp), else HYMPI_SMPI_POLL_US
// simulated microseconds (the environment wins; default 1).
#include <simgrid/actor.h>

#include <cstdlib>

#include "hympi/node_sync.hpp"

extern "C" double hympi_smpi_flag_poll_seconds();  // onnode_cost.cpp

namespace {

void simulated_sleep() {
  static const double seconds = [] {
    const char* env = std::getenv("HYMPI_SMPI_POLL_US");
    if (!env && hympi_smpi_flag_poll_seconds() > 0) return hympi_smpi_flag_poll_seconds();
    const double us = env ? std::atof(env) : 1.0;
    return (us > 0 ? us : 1.0) * 1e-6;
  }();
  sg_actor_sleep_for(seconds);
}

[[maybe_unused]] const bool installed = (hympi::set_idle_function(&simulated_sleep), true);

}  // namespace
