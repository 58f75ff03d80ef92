# HYMPI_ARCH: the CPU the code is compiled for.
#   native  - the CPU of the machine that builds (-march=native): fastest when you
#             build where you run (laptop, workstation, a compute node's shell)
#   generic - the compiler's default target (portable x86-64/aarch64 baseline);
#             also right when the compiler wrapper sets the target (Cray craype-*)
#   <arch>  - any -march value, e.g. znver3, skylake-avx512, x86-64-v3: for a
#             cluster whose login node differs from its compute nodes
# Directory-scope flags: they reach our own targets, never an installed package's
# consumers. A subproject (add_subdirectory/FetchContent) defaults to generic and
# leaves the target to its parent.
include_guard(GLOBAL)
include(CheckCXXCompilerFlag)

if(PROJECT_IS_TOP_LEVEL)
  set(_hympi_arch_default native)
else()
  set(_hympi_arch_default generic)
endif()
set(HYMPI_ARCH "${_hympi_arch_default}" CACHE STRING "CPU target: native, generic, or a -march value")
set_property(CACHE HYMPI_ARCH PROPERTY STRINGS native generic)

if(NOT HYMPI_ARCH STREQUAL "generic")
  set(_hympi_arch_flag "-march=${HYMPI_ARCH}")
  check_cxx_compiler_flag("${_hympi_arch_flag}" HYMPI_ARCH_FLAG_OK_${HYMPI_ARCH})
  if(NOT HYMPI_ARCH_FLAG_OK_${HYMPI_ARCH})
    message(FATAL_ERROR "HYMPI_ARCH=${HYMPI_ARCH}: ${CMAKE_CXX_COMPILER} does not accept ${_hympi_arch_flag}; "
                        "use native, generic, or a -march value the compiler knows")
  endif()
  add_compile_options("${_hympi_arch_flag}")
  # GCC 12's AVX-512 headers trip its own -Wmaybe-uninitialized inside Eigen
  # (self-initialized `__Y`, GCC PR 105593, fixed in 13): silence it there only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(hympi_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  endif()
endif()
message(STATUS "hympi: CPU target ${HYMPI_ARCH}")
