#include "run_info.hpp"

#include <unistd.h>

#include <algorithm>
#include <ctime>

#include "hympi/topology.hpp"
#include "hympi/version.hpp"

// The revision that was built: a header rewritten at every build (cmake/HympiGitRevision.cmake).
// Builds without it (the SMPI sub-project) pass -DHYMPI_GIT_REVISION instead.
#if __has_include("hympi_git_revision.h")
#include "hympi_git_revision.h"
#endif
#ifndef HYMPI_GIT_REVISION
#define HYMPI_GIT_REVISION "unknown"
#endif

extern "C" char* openblas_get_config(void) __attribute__((weak));

namespace hympi::apps {

RunInfo gather_run_info(const Topology& topo) {
  RunInfo info;
  char buf[64];
  std::time_t now = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  info.date = buf;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  info.host = host;
  info.mpi = mpi_library_version();
  info.blas = openblas_get_config ? openblas_get_config() : "unknown";
  info.git = HYMPI_GIT_REVISION;
  info.ranks = topo.size();
  info.nodes = topo.num_nodes();
  for (const auto& ranks : topo.map().ranks_of_node)
    info.ranks_per_node = std::max<int>(info.ranks_per_node, static_cast<int>(ranks.size()));
  info.layout = topo.layout().describe();
  return info;
}

}  // namespace hympi::apps
