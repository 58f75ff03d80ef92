// Internal: what the persistent C API accepts as an MPI_Datatype. Predefined
// types and contiguous derived types of them, nothing else: hympi moves elements
// as bytes (allgather, bcast) or hands the reduction a basic type.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace hympi::c_api {

struct ElementType {
  std::size_t size = 0;                    // MPI_Type_size of the user's type
  MPI_Datatype basic = MPI_DATATYPE_NULL;  // the predefined type it is made of
  std::int64_t basic_per_element = 1;      // how many `basic` make one element
};

// Local check (throws hympi::Error: invalid_argument for MPI_DATATYPE_NULL or an
// empty type, unsupported for non-contiguous constructors, naming `call` and the
// constructor).
ElementType analyse_datatype(MPI_Datatype type, const char* call);

}  // namespace hympi::c_api
