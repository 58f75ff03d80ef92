#include "summa_skeleton_options.hpp"

#include <sstream>
#include <tuple>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"

namespace hympi::skeleton {

std::string usage() {
  return "usage: smpirun ... hympi-smpi-summa-skeleton [options]\n"
         "The SUMMA/HSUMMA skeleton: hympi-summa's pure-policy multiply (the engine's grid\n"
         "communicators, phase order outer A, outer B, inner A, inner B, update; MPI_Bcast +\n"
         "smpi_execute_flops) without the engine, for scale runs. Simulated times equal\n"
         "hympi-summa's on the same platform and flags (apps/smpi/README.md, \"The skeleton\").\n"
         "  -n N          matrix size, m = n = k                    (default 8192)\n"
         "  -b B          inner block size b                        (default 256)\n"
         "  -M M          outer block size M, a multiple of b: one outer broadcast of M\n"
         "                columns, then M/b inner broadcasts and updates of b (default b)\n"
         "  --grid PxQ    process grid, P x Q = ranks               (default: the most square, P <= Q)\n"
         "  --groups LIST comma list of summa and IxJ (I | P, J | Q), run in this order in one\n"
         "                simulation (default summa)\n"
         "  --steps S     the first S of the n/M outer steps        (default 4; 0 = all)\n"
         "  --csv FILE    one row per multiply (step_basis=barrier: hympi-summa's time, closing\n"
         "                barrier included) and one per step s = 1..S (step_basis=mark: the\n"
         "                slowest rank's time at the end of step s); '-' = stdout; FILE is overwritten\n"
         "  -h, --help    this text (under smpirun give -h: SimGrid takes --help for its own)\n"
         "Exit codes: 0 done, 2 bad usage (message on stderr).\n";
}

namespace {

// A whole positive number of at most 12 digits, else an error naming the option.
std::string whole(const std::string& text, const std::string& what, std::int64_t& out, bool zero_ok = false) {
  const bool digits = !text.empty() && text.size() <= 12 && text.find_first_not_of("0123456789") == std::string::npos;
  if (digits) out = std::stoll(text);
  if (!digits || (out == 0 && !zero_ok))
    return what + " must be a " + (zero_ok ? "non-negative" : "positive") + " integer, got '" + text + "'";
  return "";
}

std::string parse_groups(const std::string& list, std::vector<Variant>& out) {
  std::stringstream in(list);
  std::string item;
  out.clear();
  while (std::getline(in, item, ',')) {
    Variant v;
    if (item == "summa" || item == "SUMMA") {
      v.summa = true;
    } else {
      try {
        std::tie(v.I, v.J) = parse_grid(item, "a --groups entry");
      } catch (const Error& e) {
        return std::string(e.what()) + " (or summa)";
      }
    }
    out.push_back(v);
  }
  return out.empty() ? "--groups needs at least one entry (summa or IxJ)" : "";
}

std::string check_sizes(const Options& o, int ranks) {
  const std::string grid = std::to_string(o.P) + "x" + std::to_string(o.Q);
  if (static_cast<std::int64_t>(o.P) * o.Q != ranks)
    return "--grid " + grid + " has " + std::to_string(static_cast<std::int64_t>(o.P) * o.Q) +
           " ranks but the simulation has " + std::to_string(ranks);
  if (o.n % o.P || o.n % o.Q)
    return "-n " + std::to_string(o.n) + " must be a multiple of the grid's P = " + std::to_string(o.P) +
           " and Q = " + std::to_string(o.Q);
  if ((o.n / o.P) % o.b || (o.n / o.Q) % o.b)
    return "n/P = " + std::to_string(o.n / o.P) + " and n/Q = " + std::to_string(o.n / o.Q) +
           " must be multiples of b = " + std::to_string(o.b) + " (whole panel steps)";
  if (o.M % o.b)
    return "-M " + std::to_string(o.M) + " must be a multiple of b = " + std::to_string(o.b);
  if ((o.n / o.P) % o.M || (o.n / o.Q) % o.M)
    return "n/P = " + std::to_string(o.n / o.P) + " and n/Q = " + std::to_string(o.n / o.Q) +
           " must be multiples of M = " + std::to_string(o.M) + " (whole outer steps)";
  for (const Variant& v : o.variants)
    if (o.P % v.I || o.Q % v.J)
      return "groups " + std::to_string(v.I) + "x" + std::to_string(v.J) + " must divide the grid " + grid +
             " (I | P and J | Q)";
  return "";
}

}  // namespace

std::string parse_options(int argc, char** argv, int ranks, Options& o) {
  std::string grid, groups = "summa", error;
  for (int i = 1; i < argc && error.empty(); ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      o.help = true;
      return "";
    }
    const bool valued = arg == "-n" || arg == "-b" || arg == "-M" || arg == "--grid" || arg == "--groups" || arg == "--steps" ||
                        arg == "--csv";
    if (!valued) return "unknown option '" + arg + "' (--help lists them)";
    if (i + 1 >= argc) return arg + " needs a value";
    const std::string value = argv[++i];
    if (arg == "-n") error = whole(value, "-n", o.n);
    if (arg == "-b") error = whole(value, "-b", o.b);
    if (arg == "-M") error = whole(value, "-M", o.M);
    if (arg == "--steps") error = whole(value, "--steps", o.steps, true);
    if (arg == "--grid") grid = value;
    if (arg == "--groups") groups = value;
    if (arg == "--csv") o.csv = value;
  }
  if (!error.empty()) return error;
  try {
    std::tie(o.P, o.Q) = grid.empty() ? most_square_grid(ranks) : parse_grid(grid, "--grid");
  } catch (const Error& e) {
    return e.what();
  }
  if (!(error = parse_groups(groups, o.variants)).empty()) return error;
  if (o.M == 0) o.M = o.b;
  return check_sizes(o, ranks);
}

}  // namespace hympi::skeleton
