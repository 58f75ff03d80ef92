#include "datatype.hpp"

#include <string>
#include <utility>

#include "hympi/error.hpp"

namespace hympi::detail {

namespace {

// The MPI call behind each combiner of a derived datatype hympi refuses, for the message.
const std::pair<int, const char*> kConstructors[] = {
    {MPI_COMBINER_VECTOR, "MPI_Type_vector"},
    {MPI_COMBINER_HVECTOR, "MPI_Type_create_hvector"},
    {MPI_COMBINER_INDEXED, "MPI_Type_indexed"},
    {MPI_COMBINER_HINDEXED, "MPI_Type_create_hindexed"},
    {MPI_COMBINER_INDEXED_BLOCK, "MPI_Type_create_indexed_block"},
    {MPI_COMBINER_STRUCT, "MPI_Type_create_struct"},
    {MPI_COMBINER_SUBARRAY, "MPI_Type_create_subarray"},
    {MPI_COMBINER_DARRAY, "MPI_Type_create_darray"},
    {MPI_COMBINER_RESIZED, "MPI_Type_create_resized"}};

const char* constructor_name(int combiner) {
  for (const auto& [known, name] : kConstructors)
    if (known == combiner) return name;
  return "a non-contiguous constructor";
}

[[noreturn]] void unsupported(const char* call, const std::string& why) {
  throw Error(ErrorCode::unsupported, std::string("hympi: ") + call + ": unsupported datatype: " + why +
                                          "; hympi needs a predefined datatype or MPI_Type_contiguous of one");
}

// Predefined types that are not MPI_COMBINER_NAMED: MPI_Type_create_f90_*.
bool is_f90(int combiner) {
  return combiner == MPI_COMBINER_F90_INTEGER || combiner == MPI_COMBINER_F90_REAL ||
         combiner == MPI_COMBINER_F90_COMPLEX;
}

// A type MPI_Type_get_contents returned: derived ones are new handles to free.
struct ContentsType {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  ~ContentsType() {
    int c = 0, a = 0, b = 0, d = 0;
    if (type != MPI_DATATYPE_NULL && MPI_Type_get_envelope(type, &a, &b, &d, &c) == MPI_SUCCESS &&
        c != MPI_COMBINER_NAMED)
      MPI_Type_free(&type);
  }
};

// Follows MPI_Type_contiguous / MPI_Type_dup down to the predefined type.
void descend(MPI_Datatype type, const char* call, ElementType& out, int depth) {
  int n_ints = 0, n_addrs = 0, n_types = 0, combiner = 0;
  HYMPI_CHECK_MPI(MPI_Type_get_envelope(type, &n_ints, &n_addrs, &n_types, &combiner));
  if (combiner == MPI_COMBINER_NAMED || is_f90(combiner)) {
    out.basic = type;
    return;
  }
  if (depth > 64) unsupported(call, "derived types nested deeper than 64");
  if (combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP)
    unsupported(call, std::string("a derived type built by ") + constructor_name(combiner) + " (not contiguous)");
  int ints[1] = {1};
  MPI_Aint addrs[1] = {0};
  ContentsType inner;
  HYMPI_CHECK_MPI(MPI_Type_get_contents(type, n_ints, n_addrs, n_types, ints, addrs, &inner.type));
  if (combiner == MPI_COMBINER_CONTIGUOUS) out.basic_per_element *= ints[0];
  descend(inner.type, call, out, depth + 1);
}

}  // namespace

ElementType analyse_datatype(MPI_Datatype type, const char* call, Padding padding) {
  require(type != MPI_DATATYPE_NULL, std::string(call) + ": datatype is MPI_DATATYPE_NULL");
  ElementType out;
  int size = 0;
  HYMPI_CHECK_MPI(MPI_Type_size(type, &size));
  require(size > 0, std::string(call) + ": datatype has size 0");
  out.size = static_cast<std::size_t>(size);
  descend(type, call, out, 0);
  MPI_Aint lb = 0, extent = 0;
  HYMPI_CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  // Padding in a predefined pair type (MPI_DOUBLE_INT): element i is not at i * size.
  const bool padded_ok = padding == Padding::allowed && extent > static_cast<MPI_Aint>(size);
  if (lb != 0 || (extent != static_cast<MPI_Aint>(size) && !padded_ok))
    unsupported(call, "size " + std::to_string(size) + " differs from extent " + std::to_string(extent) +
                          " (lower bound " + std::to_string(lb) + ")");
  out.extent = static_cast<std::size_t>(extent);
  return out;
}

}  // namespace hympi::detail
