// The SMPI probes' --csv: rank 0 opens it ("-": stdout) and tells every rank whether it could,
// with one MPI_Bcast of a long long, as hympi-summa's RecordCsv::open does (the skeletons keep the
// app's setup messages). False on every rank when rank 0 could not (it says so, naming `tool`);
// *out is rank 0's file, nullptr elsewhere or without a path.
#pragma once
#include <mpi.h>

#include <cstdio>
#include <string>

namespace hympi_probe {

inline bool open_root_csv(const std::string& path, const char* tool, std::FILE** out) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  *out = nullptr;
  if (rank == 0 && !path.empty()) *out = path == "-" ? stdout : std::fopen(path.c_str(), "w");
  long long bad = rank == 0 && !path.empty() && !*out ? 1 : 0;
  MPI_Bcast(&bad, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (bad && rank == 0) std::fprintf(stderr, "%s: error: cannot write --csv '%s'\n", tool, path.c_str());
  return !bad;
}

}  // namespace hympi_probe
