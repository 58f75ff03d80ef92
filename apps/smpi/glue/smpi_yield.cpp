// The simulated replacement of sched_yield() (see smpi_unmacro.h): sleep a short
// simulated time so other simulated ranks run and the clock can move on.
#include <simgrid/actor.h>

#include <cstdlib>

extern "C" int hympi_smpi_yield(void) {
  static const double seconds = [] {
    const char* env = std::getenv("HYMPI_SMPI_POLL_US");
    const double us = env ? std::atof(env) : 1.0;
    return (us > 0 ? us : 1.0) * 1e-6;
  }();
  sg_actor_sleep_for(seconds);
  return 0;
}
