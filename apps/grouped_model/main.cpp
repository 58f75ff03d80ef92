// hympi-grouped-model: what groups = auto predicts and picks for a grouped broadcast
// (or any grouped collective: each is a leaders' level and a group's level of the
// same bytes) of --bytes over --ranks units, on the machine of the HYMPI_MODEL_*
// environment (lib/README.md "Grouped collectives"). No MPI: plan a run before
// spending allocation hours, or recompute the model column of recorded rows
// (apps/smpi/run-hier-bcast.sh --remodel).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "grouped/grouped.hpp"
#include "hympi/collectives.hpp"

namespace {

constexpr const char* kAbout =
    "groups = auto's closed form: the predicted seconds of G groups for each G asked (default: 1 and the powers of "
    "two below the units, the candidates auto weighs) and auto's pick. CSV on stdout: ranks,bytes,groups,model_s,"
    "auto (1 on the pick); '#' lines name the machine. The machine comes from the environment: HYMPI_MODEL_ALPHA "
    "(s per message), HYMPI_MODEL_BETA (s per byte), HYMPI_MODEL_BCAST (mpich | dcmf), HYMPI_MODEL_NODE_RANKS, "
    "HYMPI_MODEL_SHM_ALPHA, HYMPI_MODEL_SHM_BETA, HYMPI_MODEL_TORUS (XxYxZ[:mesh]); default BG/P's alpha and beta, "
    "MPICH's rule, no nodes, no torus.";


// The median of repeated picks, at least 5 and until 0.2 s have passed.
double pick_seconds(int units, long long bytes, const hympi::detail::Placement& where) {
  using clock = std::chrono::steady_clock;
  std::vector<double> times;
  const auto end = clock::now() + std::chrono::milliseconds(200);
  volatile int sink = 0;
  while (times.size() < 5 || clock::now() < end) {
    const auto t0 = clock::now();
    sink = hympi::detail::automatic_groups(units, bytes, where);
    times.push_back(std::chrono::duration<double>(clock::now() - t0).count());
  }
  (void)sink;
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app(kAbout, "hympi-grouped-model");
  long long ranks = 0, bytes = 0;
  std::vector<int> groups;
  bool nodes = false, timed = false;
  int root = 0;
  app.add_option("--ranks", ranks, "units of the communicator (ranks; nodes with --units-are-nodes)")
      ->required()
      ->check(CLI::Range(1LL, 1LL << 30));
  app.add_option("--bytes", bytes, "bytes of the collective")->required()->check(CLI::Range(1LL, 1LL << 50));
  app.add_option("--groups", groups, "comma list of G to predict (each 1..ranks)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--root", root, "the broadcast's or reduction's root (it leads its group; default 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--units-are-nodes", nodes, "the units are nodes (the hybrid policy): no on-node level, no torus");
  app.add_flag("--time", timed,
               "also print '# pick_seconds: S', the median time of auto's pick over repeats filling 0.2 s (what "
               "an init with groups = auto spends choosing G, where the thesis' HiMPI_Init benchmarks every G)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every app's exits (apps/common/app.hpp): --help 0, bad usage 2 with one "<app>: error:" line.
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "hympi-grouped-model: error: %s\n", e.what());
    return 2;
  }
  try {
    const int units = static_cast<int>(ranks);
    for (int g : groups)
      if (g > units) throw std::invalid_argument("--groups: G = " + std::to_string(g) + " exceeds --ranks " +
                                                 std::to_string(units));
    if (root >= units) throw std::invalid_argument("--root " + std::to_string(root) + " is not below --ranks");
    const auto m = hympi::detail::model_machine();
    const hympi::detail::Placement where{nodes, true, root};
    const int pick = hympi::detail::automatic_groups(units, bytes, where);
    if (timed) std::printf("# pick_seconds: %.3g\n", pick_seconds(units, bytes, where));
    if (groups.empty()) {
      groups.push_back(1);
      for (int g = 2; g < units; g *= 2) groups.push_back(g);
    }
    std::printf("# machine: %s\n", hympi::grouped_model_machine().c_str());
    if (m.torus.known() && (nodes || !m.torus.fits(units)))
      std::printf("# the torus is not used: %s\n",
                  nodes ? "the units are nodes" : "more ranks than its nodes x HYMPI_MODEL_NODE_RANKS hold");
    std::printf("ranks,bytes,groups,model_s,auto\n");
    for (int g : groups)
      std::printf("%d,%lld,%d,%.9g,%d\n", units, bytes, g, hympi::detail::grouped_seconds(units, g, bytes, m, where),
                  g == pick ? 1 : 0);
    if (std::find(groups.begin(), groups.end(), pick) == groups.end())
      std::printf("# auto picks G = %d (not among --groups)\n", pick);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hympi-grouped-model: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
