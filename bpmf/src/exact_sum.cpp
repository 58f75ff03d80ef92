#include "bpmf/exact_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "hympi/error.hpp"

namespace bpmf {

namespace {
constexpr double kScale = 0x1p56;  // fixed point: 56 fraction bits
constexpr double kLimit = 0x1p39;  // whole part of a term fits the high 64-bit word with room to spare

void add_int128(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) {
    int128 a, b;
    std::memcpy(&a, static_cast<char*>(in) + 16 * i, 16);
    std::memcpy(&b, static_cast<char*>(inout) + 16 * i, 16);
    b += a;
    std::memcpy(static_cast<char*>(inout) + 16 * i, &b, 16);
  }
}
}  // namespace

void ExactSums::clear() {
  std::fill(acc_.begin(), acc_.end(), int128{0});
}

void ExactSums::add(std::size_t index, double term) {
  if (!std::isfinite(term) || std::fabs(term) >= kLimit)
    throw hympi::Error(hympi::ErrorCode::internal,
                       "bpmf: a term of an exact sum is not finite or too large (" + std::to_string(term) + ")");
  // Two native double->int64 truncations instead of one slow double->int128 one:
  // high = whole multiples of 2^-24, low = the (exact) remainder in units of 2^-56.
  const double scaled = term * 0x1p24;
  const auto high = static_cast<std::int64_t>(scaled);
  const auto low = static_cast<std::int64_t>((scaled - static_cast<double>(high)) * 0x1p32);
  acc_[index] += static_cast<int128>(high) * (int128{1} << 32) + low;
}

double ExactSums::value(std::size_t index) const {
  return static_cast<double>(acc_[index]) / kScale;
}

void ExactSums::allreduce(MPI_Comm comm) {
  static_assert(sizeof(int128) == 16, "128-bit integers expected");
  MPI_Datatype type;
  MPI_Op op;
  HYMPI_CHECK_MPI(MPI_Type_contiguous(16, MPI_BYTE, &type));
  HYMPI_CHECK_MPI(MPI_Type_commit(&type));
  HYMPI_CHECK_MPI(MPI_Op_create(&add_int128, 1, &op));
  const int rc = MPI_Allreduce(MPI_IN_PLACE, acc_.data(), static_cast<int>(acc_.size()), type, op, comm);
  MPI_Op_free(&op);  // freed before reporting a failure of the reduction
  MPI_Type_free(&type);
  HYMPI_CHECK_MPI(rc);
}

}  // namespace bpmf
