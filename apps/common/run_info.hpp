// Metadata every CSV row carries: where and with what a measurement ran (as CSV
// columns: run_info_record in record.hpp).
#pragma once
#include <mpi.h>

#include <string>

namespace hympi {
class Topology;
}

namespace hympi::apps {

struct RunInfo {
  std::string date;  // ISO 8601, UTC, at start
  std::string host;  // hostname of rank 0
  std::string mpi;   // MPI library version (first line)
  std::string blas;  // OpenBLAS config string, or "unknown"
  std::string git;   // git revision the binary was built from
  int ranks = 0;
  int nodes = 0;           // real or emulated nodes of the topology
  int ranks_per_node = 0;  // max over nodes
  std::string layout;      // "real", "rpn=2,block", ...
};

// Collective over topo.comm().
RunInfo gather_run_info(const Topology& topo);

}  // namespace hympi::apps
