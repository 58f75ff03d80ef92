// groups = 0: G from a closed form of the route model (apps/model/route_model.py)
// without its torus: every level is the MPICH broadcast the simulated layer and
// the thesis use (route_model.mpich_algorithm: binomial below 12 KiB or on fewer
// than 8 ranks, scatter + recursive doubling below 512 KiB on a power of two,
// else scatter + ring), charged alpha per message and beta per byte (Hockney).
// A grouped collective costs the leaders' level on G ranks plus the largest
// group's level on ceil(units / G). Link sharing, which the route model replays,
// is left out: it moves the optimum little for block placement. The same form
// serves every operation (each grouped one is a leaders' level and a group's
// level of the same bytes). Candidates: G = 1 and powers of two below the units:
// groups that are a power-of-two fraction stay aligned with power-of-two nodes
// (at 6142 simulated BG/P ranks G = 78 splits nodes and loses 1.6x to G = 64).
// The machine: HYMPI_MODEL_ALPHA (seconds per message) and HYMPI_MODEL_BETA
// (seconds per byte) from the environment (apps/smpi/run-hier-bcast.sh sets the
// platform's); default BG/P's (make_platform.py bgp: 2.5 us software overhead per
// off-node message + hops, 425 MB/s links).
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "grouped/grouped.hpp"

namespace hympi::detail {

namespace {

constexpr double kShortBytes = 12 * 1024, kLongBytes = 512 * 1024;
constexpr int kMinRanks = 8;

double env_or(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  return (end && *end == '\0' && v > 0) ? v : fallback;
}

int ceil_log2(std::int64_t p) {
  int lg = 0;
  while ((std::int64_t{1} << lg) < p) ++lg;
  return lg;
}

// One MPICH broadcast of `bytes` among p ranks.
double bcast_seconds(std::int64_t p, double bytes, double alpha, double beta) {
  if (p <= 1) return 0;
  const double lg = ceil_log2(p), spread = static_cast<double>(p - 1) / static_cast<double>(p);
  if (bytes < kShortBytes || p < kMinRanks) return lg * (alpha + bytes * beta);
  const double scatter = lg * alpha + spread * bytes * beta;
  if (bytes < kLongBytes && (p & (p - 1)) == 0) return scatter + lg * alpha + spread * bytes * beta;
  return scatter + static_cast<double>(p - 1) * alpha + spread * bytes * beta;
}

}  // namespace

ModelMachine model_machine() {
  return {env_or("HYMPI_MODEL_ALPHA", 3.0e-6), env_or("HYMPI_MODEL_BETA", 1.0 / 425e6)};
}

double grouped_seconds(int units, int groups, std::int64_t bytes, double alpha, double beta) {
  const std::int64_t largest = (units + groups - 1) / groups;
  return bcast_seconds(groups, static_cast<double>(bytes), alpha, beta) +
         bcast_seconds(largest, static_cast<double>(bytes), alpha, beta);
}

int automatic_groups(int units, std::int64_t bytes) {
  const auto [alpha, beta] = model_machine();
  int best = 1;
  double best_s = grouped_seconds(units, 1, bytes, alpha, beta);
  for (int g = 2; g < units; g *= 2) {
    const double s = grouped_seconds(units, g, bytes, alpha, beta);
    if (s < best_s * (1 - 1e-9)) best = g, best_s = s;  // ties keep fewer groups
  }
  return best;
}

}  // namespace hympi::detail
