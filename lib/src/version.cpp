#include "hympi/version.hpp"

#include <mpi.h>

#include <cstring>

#include "hympi/hympi.h"

namespace hympi {

std::string library_version() {
  return HYMPI_VERSION_STRING;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  // Open MPI counts the terminating NUL in `length`; stop at the first NUL.
  std::string version(text, strnlen(text, static_cast<std::size_t>(length)));
  auto end = version.find_first_of("\r\n");
  if (end != std::string::npos) version.resize(end);
  // MPICH prints "MPICH Version:\t4.0.2": make it one clean field.
  for (char& c : version)
    if (c == '\t') c = ' ';
  while (!version.empty() && version.back() == ' ') version.pop_back();
  return version;
}

}  // namespace hympi

extern "C" const char* hympi_version(void) {
  return HYMPI_VERSION_STRING;
}
