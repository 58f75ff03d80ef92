#include "reduce_types.hpp"

#include <stdexcept>

namespace hympi::bench {

namespace {
struct TypeInfo {
  const char* name;
  MPI_Datatype type;
  std::size_t bytes;
  const char* mpi_name;
};
const TypeInfo& info_of(const std::string& type) {
  static const TypeInfo types[] = {{"double", MPI_DOUBLE, sizeof(double), "MPI_DOUBLE"},
                                   {"float", MPI_FLOAT, sizeof(float), "MPI_FLOAT"},
                                   {"int32", MPI_INT32_T, sizeof(std::int32_t), "MPI_INT32_T"},
                                   {"int64", MPI_INT64_T, sizeof(std::int64_t), "MPI_INT64_T"}};
  for (const auto& t : types)
    if (type == t.name) return t;
  throw std::invalid_argument("unknown --type '" + type + "'");
}
}  // namespace

const std::vector<std::string>& reduce_type_names() {
  static const std::vector<std::string> names = {"double", "float", "int32", "int64"};
  return names;
}

const std::vector<std::string>& reduce_op_names() {
  static const std::vector<std::string> names = {"sum", "prod", "min", "max"};
  return names;
}

MPI_Datatype mpi_type_of(const std::string& type) {
  return info_of(type).type;
}
std::size_t bytes_of(const std::string& type) {
  return info_of(type).bytes;
}
std::string mpi_type_text(const std::string& type) {
  return info_of(type).mpi_name;
}

MPI_Op mpi_op_of(const std::string& op) {
  if (op == "sum") return MPI_SUM;
  if (op == "prod") return MPI_PROD;
  if (op == "min") return MPI_MIN;
  if (op == "max") return MPI_MAX;
  throw std::invalid_argument("unknown --op '" + op + "'");
}

}  // namespace hympi::bench
