// NumPy .npy files of float64 matrices (format version 1.0, '<f8', C order), so
// saved samples are readable by numpy.load without hympi.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bpmf {

struct NpyMatrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> values;  // row-major
};

// Durably (durable_file.hpp). Throws InputError.
void write_npy(const std::string& path, const double* values, std::int64_t rows, std::int64_t cols);
// Throws InputError naming the file when it is not a 2-D '<f8' C-order .npy (or is truncated).
NpyMatrix read_npy(const std::string& path);

}  // namespace bpmf
