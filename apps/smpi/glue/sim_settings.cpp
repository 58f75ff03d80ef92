// Reads the simulated MPI layer's settings (sim_settings.hpp) from the environment.
#include "sim_settings.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace hympi_sim {
namespace {

[[noreturn]] void bad(const char* name, const char* value, const char* expected) {
  std::fprintf(stderr, "hympi sim layer: %s must be %s, got '%s'\n", name, expected, value);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::abort();
}

// The value of NAME if set and one of the choices (index), else `unset`; a bad value stops the run.
int choice(const char* name, const char* const* choices, int n, int unset, const char* expected) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return unset;
  for (int i = 0; i < n; ++i)
    if (std::strcmp(value, choices[i]) == 0) return i;
  bad(name, value, expected);
}

Settings read_settings() {
  Settings s;
  static const char* const sharing[] = {"route", "fair"};
  static const char* const overheads[] = {"smpi", "all"};
  static const char* const bcast[] = {"smpi", "mpich", "dcmf"};
  s.fair_sharing = choice("HYMPI_SIM_SHARING", sharing, 2, 0, "fair or route") == 1;
  s.all_overheads = choice("HYMPI_SIM_OVERHEADS", overheads, 2, 0, "all or smpi") == 1;
  s.bcast = static_cast<Bcast>(choice("HYMPI_SIM_BCAST", bcast, 3, 0, "dcmf, mpich or smpi"));
  if (const char* merge = std::getenv("HYMPI_SIM_RING_MERGE"); merge && *merge) {
    char* end = nullptr;
    const long v = std::strtol(merge, &end, 10);
    if (*end != '\0' || v < 1 || v > 1000000) bad("HYMPI_SIM_RING_MERGE", merge, "an integer >= 1");
    s.ring_merge = static_cast<int>(v);
  }
  return s;
}

}  // namespace

const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

}  // namespace hympi_sim
