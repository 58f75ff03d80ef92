// The options both trace tools take, so the real run and the skeleton see one case.
#ifndef HYMPI_PDGEMM_CASE_OPTIONS_HPP
#define HYMPI_PDGEMM_CASE_OPTIONS_HPP

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "pdgemm_schedule.hpp"

namespace hympi::pdgemm_skel {

struct CaseOptions {
  Case c;
  std::string grid = "2x2", trans = "NN";
  long size = 0;  // -N: M = N = K
};

inline void add_case_options(CLI::App& app, CaseOptions& o) {
  app.add_option("--grid", o.grid, "BLACS grid PxQ (row-major)")->capture_default_str();
  app.add_option("-N,--size", o.size, "M = N = K (overrides -m -n -k)");
  app.add_option("-m", o.c.M, "rows of C");
  app.add_option("-n", o.c.N, "columns of C");
  app.add_option("-k", o.c.K, "inner dimension");
  app.add_option("--nb", o.c.nb, "distribution block of A, B, C")->capture_default_str();
  app.add_option("--trans", o.trans, "transa transb, e.g. NN or TN")->capture_default_str();
}

// Fills o.c from the strings; throws std::invalid_argument with the message to print.
inline void resolve(CaseOptions& o) {
  int p = 0, q = 0;
  char tail = 0;
  if (std::sscanf(o.grid.c_str(), "%dx%d%c", &p, &q, &tail) != 2 || p < 1 || q < 1)
    throw std::invalid_argument("--grid must be PxQ with P, Q >= 1, got '" + o.grid + "'");
  o.c.P = p;
  o.c.Q = q;
  if (o.trans.size() != 2) throw std::invalid_argument("--trans must be two letters (N or T), got '" + o.trans + "'");
  o.c.transa = static_cast<char>(std::toupper(static_cast<unsigned char>(o.trans[0])));
  o.c.transb = static_cast<char>(std::toupper(static_cast<unsigned char>(o.trans[1])));
  if (o.size > 0) o.c.M = o.c.N = o.c.K = o.size;
}


// CLI11's own parse errors as the project's: "<tool>: error: ...", exit 2 (help: exit 0).
inline int parse_or_exit(CLI::App& app, int argc, char** argv, const char* tool) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? 0 : 2;
    std::fprintf(stderr, "%s: error: %s\n", tool, e.what());
    return 2;
  }
  return -1;  // parsed: go on
}

}  // namespace hympi::pdgemm_skel

#endif
