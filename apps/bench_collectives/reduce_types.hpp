// --type and --op of the reductions: the names the command line and the CSV use,
// and their MPI handles.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hympi::bench {

const std::vector<std::string>& reduce_type_names();  // double, float, int32, int64
const std::vector<std::string>& reduce_op_names();    // sum, prod, min, max

MPI_Datatype mpi_type_of(const std::string& type);
std::size_t bytes_of(const std::string& type);
MPI_Op mpi_op_of(const std::string& op);
std::string mpi_type_text(const std::string& type);  // "MPI_DOUBLE", for the OSU preamble

// Calls f(T{}) with T the C++ type of `type`.
template <class F>
auto with_type(const std::string& type, F&& f) {
  if (type == "float") return f(float{});
  if (type == "int32") return f(std::int32_t{});
  if (type == "int64") return f(std::int64_t{});
  return f(double{});
}

}  // namespace hympi::bench
