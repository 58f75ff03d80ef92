// hympi-pdgemm-skel: the trace ScaLAPACK's pdgemm_ would leave under the tracer
// (libhympi_pdgemm_tracer.so), every rank's, from the skeleton alone (no MPI, no
// ScaLAPACK). Same options as hympi-pdgemm-trace-run; compare the two files.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "case_options.hpp"
#include "trace_sink.hpp"

int main(int argc, char** argv) {
  using namespace hympi::pdgemm_skel;
  CLI::App app{"hympi-pdgemm-skel: the per-rank messages and DGEMMs of ScaLAPACK's pdgemm_ for one case, from "
               "the skeleton (apps/pdgemm_trace/README.md)",
               "hympi-pdgemm-skel"};
  CaseOptions o;
  std::string out = "-", ring = "up";
  add_case_options(app, o);
  app.add_option("--out", out, "trace file ('-' = stdout)")->capture_default_str();
  app.add_option("--kb", o.c.kb, "K chunk (PBLAS uses 32; other values are mutations for tests)")
      ->capture_default_str();
  app.add_option("--ring", ring, "ring direction: up (BLACS 'i', what PBLAS picks) or down (a mutation)")
      ->check(CLI::IsMember({"up", "down"}))
      ->capture_default_str();
  if (const int rc = parse_or_exit(app, argc, argv, "hympi-pdgemm-skel"); rc >= 0) return rc;
  o.c.ring_up = ring == "up";
  try {
    resolve(o);
    check(o.c);
  } catch (const NotModeled& e) {
    std::fprintf(stderr, "hympi-pdgemm-skel: error: not modelled: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hympi-pdgemm-skel: error: %s\n", e.what());
    return 2;
  }
  std::ofstream file;
  if (out != "-") {
    file.open(out);
    if (!file) {
      std::fprintf(stderr, "hympi-pdgemm-skel: error: cannot write %s\n", out.c_str());
      return 2;
    }
  }
  std::ostream& os = out == "-" ? std::cout : file;
  for (int rank = 0; rank < o.c.P * o.c.Q; ++rank) {
    TraceSink sink(os, rank);
    sink.begin(o.c);
    run(o.c, rank, sink);
    sink.end();
  }
  return 0;
}
