# hympi_mpi_family(<lang> <out-var> [LINK_LIBRARIES targets...])
# Which MPI family the <lang> compiler sees: openmpi, mpich (also Cray MPICH, Intel
# MPI: the MPICH ABI), other, or none (no MPI at all). Without LINK_LIBRARIES it
# probes the bare compiler, i.e. whether it is itself an MPI wrapper (mpicc, Cray cc).
# Used by hympi's build and by its installed package (so a consumer with another MPI
# fails at configure time, not at link or run time).
include_guard(GLOBAL)

function(hympi_mpi_family lang out)
  cmake_parse_arguments(P "" "" "LINK_LIBRARIES" ${ARGN})
  set(dir "${CMAKE_BINARY_DIR}${CMAKE_FILES_DIRECTORY}/hympi_mpi_family")
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  if(lang STREQUAL "Fortran")
    # No preprocessor family macros in Fortran: Open MPI exports OMPI_MAJOR_VERSION,
    # MPICH-ABI libraries share the handle value of MPI_COMM_WORLD.
    set(tests
        "openmpi:integer, parameter :: v = OMPI_MAJOR_VERSION"
        "mpich:integer(kind=merge(4, 3, MPI_COMM_WORLD == 1140850688)) :: v"
        "other:integer :: v")
    set(family none)
    foreach(test IN LISTS tests)
      string(REGEX REPLACE ":.*" "" candidate "${test}")
      string(REGEX REPLACE "^[a-z]+:" "" declaration "${test}")
      file(WRITE "${dir}/probe_${candidate}.f90"
           "subroutine hympi_probe\n  use mpi\n  implicit none\n  ${declaration}\nend subroutine\n")
      try_compile(ok "${dir}/build_${candidate}" "${dir}/probe_${candidate}.f90" LINK_LIBRARIES ${P_LINK_LIBRARIES})
      if(ok)
        set(family ${candidate})
        break()
      endif()
    endforeach()
  else()
    # One compile that always stops at an #error naming the family it saw.
    set(ext c)
    if(lang STREQUAL "CXX")
      set(ext cpp)
    endif()
    file(WRITE "${dir}/probe.${ext}"
         "#include <mpi.h>\n#if defined(OPEN_MPI)\n#error hympi-mpi-family=openmpi\n"
         "#elif defined(MPICH_VERSION)\n#error hympi-mpi-family=mpich\n#else\n#error hympi-mpi-family=other\n#endif\n")
    try_compile(ok "${dir}/build_${lang}" "${dir}/probe.${ext}" LINK_LIBRARIES ${P_LINK_LIBRARIES}
                OUTPUT_VARIABLE log)
    set(family none)
    if(log MATCHES "hympi-mpi-family=([a-z]+)")
      set(family ${CMAKE_MATCH_1})
    endif()
  endif()
  set(${out} ${family} PARENT_SCOPE)
endfunction()

# Readable names for error messages.
function(hympi_mpi_family_name family out)
  set(names "openmpi:Open MPI" "mpich:MPICH (or an MPICH-ABI MPI)" "other:an MPI that is neither Open MPI nor MPICH"
            "none:no MPI")
  foreach(n IN LISTS names)
    if(n MATCHES "^${family}:(.*)")
      set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "${family}" PARENT_SCOPE)
endfunction()
