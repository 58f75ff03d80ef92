# Finds every dependency. The MPI family is chosen by HYMPI_MPI before FindMPI runs,
# because Debian installs Open MPI and MPICH side by side.
if(HYMPI_MPI STREQUAL "openmpi" OR HYMPI_MPI STREQUAL "mpich")
  foreach(lang_wrapper C:mpicc CXX:mpicxx Fortran:mpifort)
    string(REPLACE ":" ";" pair ${lang_wrapper})
    list(GET pair 0 lang)
    list(GET pair 1 wrapper)
    find_program(_wrapper_${lang} NAMES ${wrapper}.${HYMPI_MPI} NO_CACHE)
    if(_wrapper_${lang} AND NOT MPI_${lang}_COMPILER)
      set(MPI_${lang}_COMPILER ${_wrapper_${lang}} CACHE FILEPATH "MPI ${lang} wrapper")
    endif()
  endforeach()
  find_program(_mpiexec NAMES mpiexec.${HYMPI_MPI} mpirun.${HYMPI_MPI} NO_CACHE)
  if(_mpiexec AND NOT MPIEXEC_EXECUTABLE)
    set(MPIEXEC_EXECUTABLE ${_mpiexec} CACHE FILEPATH "MPI launcher")
  endif()
endif()
find_package(MPI REQUIRED COMPONENTS C CXX Fortran)
find_package(Threads REQUIRED)

# Which family did we get? The package records it (consumers must match) and tests
# need it for launcher flags and node emulation. Asked of the compiler with MPI's
# flags, so a wrapper build (CC=mpicc.mpich, Cray cc) is named correctly too.
include(hympiMpiFamily)
hympi_mpi_family(CXX HYMPI_MPI_FAMILY LINK_LIBRARIES MPI::MPI_CXX)
# The launcher must be the same family: with wrappers and no hints FindMPI may take
# Debian's default mpiexec (the other family); then use mpiexec.<family> instead.
function(_hympi_launcher_family exe out)
  execute_process(COMMAND ${exe} --version OUTPUT_VARIABLE v ERROR_VARIABLE v TIMEOUT 20)
  set(family other)
  if(v MATCHES "Open MPI|OpenRTE")
    set(family openmpi)
  elseif(v MATCHES "HYDRA|MPICH|mpich")
    set(family mpich)
  endif()
  set(${out} ${family} PARENT_SCOPE)
endfunction()
_hympi_launcher_family(${MPIEXEC_EXECUTABLE} _launcher_family)
if(NOT _launcher_family STREQUAL HYMPI_MPI_FAMILY AND HYMPI_MPI_FAMILY MATCHES "openmpi|mpich")
  find_program(_own_mpiexec NAMES mpiexec.${HYMPI_MPI_FAMILY} mpirun.${HYMPI_MPI_FAMILY} NO_CACHE)
  if(NOT _own_mpiexec)
    message(FATAL_ERROR "hympi: the compiler sees ${HYMPI_MPI_FAMILY} but the launcher ${MPIEXEC_EXECUTABLE} is "
                        "${_launcher_family}; set MPIEXEC_EXECUTABLE to ${HYMPI_MPI_FAMILY}'s mpiexec")
  endif()
  message(STATUS "hympi: ${MPIEXEC_EXECUTABLE} is ${_launcher_family}, using ${_own_mpiexec} for ${HYMPI_MPI_FAMILY}")
  set(MPIEXEC_EXECUTABLE ${_own_mpiexec} CACHE FILEPATH "MPI launcher" FORCE)
endif()
message(STATUS "hympi: MPI family ${HYMPI_MPI_FAMILY}, launcher ${MPIEXEC_EXECUTABLE}")

if(HYMPI_BUILD_APPS)
  # A user's choice wins (-DBLA_VENDOR=Intel10_64lp, Cray LibSci through the wrapper:
  # -DBLA_VENDOR=All finds it linked implicitly); OpenBLAS otherwise.
  set(BLA_VENDOR "OpenBLAS" CACHE STRING "BLAS vendor for FindBLAS (OpenBLAS, Intel10_64lp, FlexiBLAS, All, ...)")
  find_package(BLAS REQUIRED)
  find_package(LAPACK REQUIRED)
  # ScaLAPACK: -DHYMPI_SCALAPACK_LIBRARY=<library or list> wins; else none when the
  # BLAS already has pdgemm_ (Cray LibSci, MKL cluster builds); else Debian's per-MPI
  # name (libscalapack-openmpi.so, libscalapack-mpich.so) or plain libscalapack.
  if(NOT HYMPI_SCALAPACK_LIBRARY)
    include(CheckFunctionExists)
    set(CMAKE_REQUIRED_LIBRARIES ${BLAS_LIBRARIES} MPI::MPI_C)
    check_function_exists(pdgemm_ HYMPI_BLAS_HAS_PDGEMM)
    unset(CMAKE_REQUIRED_LIBRARIES)
    if(NOT HYMPI_BLAS_HAS_PDGEMM)
      find_library(HYMPI_SCALAPACK_LIBRARY NAMES scalapack-${HYMPI_MPI_FAMILY} scalapack
                   DOC "ScaLAPACK libraries (a list is fine); empty when the BLAS has pdgemm_")
      if(NOT HYMPI_SCALAPACK_LIBRARY)
        message(FATAL_ERROR "hympi: no ScaLAPACK for ${HYMPI_MPI_FAMILY} found and the BLAS has no pdgemm_; "
                            "set HYMPI_SCALAPACK_LIBRARY or HYMPI_BUILD_APPS=OFF")
      endif()
    endif()
  endif()
  message(STATUS "hympi: BLAS ${BLAS_LIBRARIES}; ScaLAPACK ${HYMPI_SCALAPACK_LIBRARY}")
  find_package(Eigen3 3.3 REQUIRED NO_MODULE)
  find_package(CLI11 CONFIG QUIET)
  if(NOT CLI11_FOUND)
    find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
  endif()
  find_path(RANDOM123_INCLUDE_DIR Random123/philox.h REQUIRED)
  find_package(ZLIB REQUIRED)
  find_package(benchmark QUIET)
endif()
if(HYMPI_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
find_package(Python3 COMPONENTS Interpreter)
