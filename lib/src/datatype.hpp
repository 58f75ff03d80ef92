// Internal: what hympi accepts as an MPI_Datatype (the persistent C API, and the
// C++ reductions). Predefined types (including the MPI_Type_create_f90_* ones) and
// contiguous derived types of them (MPI_Type_contiguous, MPI_Type_dup), nothing
// else: hympi moves elements as extent-sized blocks of bytes.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace hympi::detail {

struct ElementType {
  std::size_t size = 0;                    // MPI_Type_size of the user's type
  std::size_t extent = 0;                  // its extent: the stride between elements
  MPI_Datatype basic = MPI_DATATYPE_NULL;  // the predefined type it is made of
  std::int64_t basic_per_element = 1;      // how many `basic` make one element
};

// Whether an element may hold padding (extent > size, as MPI_DOUBLE_INT). The
// byte-moving collectives refuse it (the C API gives them elements of `size`
// bytes); reductions take it, since MPI itself reads and writes their elements.
enum class Padding { refused, allowed };

// Local check (throws hympi::Error: invalid_argument for MPI_DATATYPE_NULL or an
// empty type, unsupported for non-contiguous constructors, naming `call` and the
// constructor).
ElementType analyse_datatype(MPI_Datatype type, const char* call, Padding padding = Padding::refused);

}  // namespace hympi::detail
