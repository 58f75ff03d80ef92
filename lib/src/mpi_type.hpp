// Internal helpers: an owned MPI datatype and checked narrowing to MPI's int counts.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "hympi/error.hpp"

namespace hympi::detail {

// A committed derived type that is freed with its owner, or a predefined type
// (never freed).
class OwnedType {
 public:
  OwnedType() = default;
  explicit OwnedType(MPI_Datatype derived) : type_(derived), owned_(true) {}
  static OwnedType predefined(MPI_Datatype type) {
    OwnedType t;
    t.type_ = type;
    return t;
  }
  ~OwnedType() { reset(); }
  OwnedType(OwnedType&& o) noexcept : type_(o.type_), owned_(o.owned_) { o.type_ = MPI_DATATYPE_NULL; }
  OwnedType& operator=(OwnedType&& o) noexcept {
    if (this != &o) {
      reset();
      type_ = o.type_;
      owned_ = o.owned_;
      o.type_ = MPI_DATATYPE_NULL;
    }
    return *this;
  }
  MPI_Datatype get() const { return type_; }
  void reset() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owned_ && type_ != MPI_DATATYPE_NULL && !finalized) MPI_Type_free(&type_);
    type_ = MPI_DATATYPE_NULL;
    owned_ = false;
  }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  bool owned_ = false;
};

// One element of `elem_size` bytes. Sizes 1, 2, 4 and 8 are predefined unsigned
// integer types (bits move unchanged, and no datatype engine: under SimGrid SMPI
// a derived type made every broadcast ~30x costlier on the host); other sizes
// are a committed contiguous type.
inline OwnedType element_type(std::size_t elem_size) {
  require(elem_size > 0, "element size must be > 0");
  require(elem_size <= static_cast<std::size_t>(std::numeric_limits<int>::max()), "element size too large");
  switch (elem_size) {
    case 1:
      return OwnedType::predefined(MPI_BYTE);
    case 2:
      return OwnedType::predefined(MPI_UINT16_T);
    case 4:
      return OwnedType::predefined(MPI_UINT32_T);
    case 8:
      return OwnedType::predefined(MPI_UINT64_T);
    default:
      break;
  }
  MPI_Datatype type;
  HYMPI_CHECK_MPI(MPI_Type_contiguous(static_cast<int>(elem_size), MPI_BYTE, &type));
  HYMPI_CHECK_MPI(MPI_Type_commit(&type));
  return OwnedType(type);
}

inline int to_int_count(std::int64_t value, const char* what) {
  if (value >= 0 && value <= std::numeric_limits<int>::max()) return static_cast<int>(value);  // no message built
  require(false, std::string(what) + " = " + std::to_string(value) +
                     " does not fit MPI's int counts; use a larger element size");
  return 0;  // unreachable: require(false, ...) throws
}

}  // namespace hympi::detail
