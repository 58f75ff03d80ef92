// Versions of what the library runs on, for CSV metadata.
#pragma once
#include <string>

namespace hympi {
std::string library_version();      // hympi's own, e.g. "0.1.0"
std::string mpi_library_version();  // first line of MPI_Get_library_version
}  // namespace hympi
