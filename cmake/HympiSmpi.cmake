# HYMPI_SMPI=ON: builds the core, the SUMMA/HSUMMA driver, the collective benchmark
# and the core collective test a second time, from the same sources, with SimGrid's
# smpicxx (apps/smpi/project, an ExternalProject in <build>/smpi; binaries in
# <build>/smpi/bin). The SMPI tests (tests/smpi) run them with smpirun.
include_guard(GLOBAL)

find_program(HYMPI_SMPICXX smpicxx)
find_program(HYMPI_SMPICC smpicc)
find_program(HYMPI_SMPIRUN smpirun)
set(HYMPI_SMPI_BIN_DIR "" CACHE INTERNAL "bin/ of the SMPI build")

if(HYMPI_SMPI)
  if(NOT HYMPI_SMPICXX OR NOT HYMPI_SMPICC OR NOT HYMPI_SMPIRUN)
    message(FATAL_ERROR "HYMPI_SMPI=ON needs SimGrid's smpicxx, smpicc and smpirun "
                        "(Debian/Ubuntu: apt install libsimgrid-dev simgrid)")
  endif()
  include(ExternalProject)
  ExternalProject_Add(hympi_smpi
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/apps/smpi/project
    BINARY_DIR ${PROJECT_BINARY_DIR}/smpi
    CMAKE_ARGS -DCMAKE_CXX_COMPILER=${HYMPI_SMPICXX} -DCMAKE_C_COMPILER=${HYMPI_SMPICC}
               -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON  # the sources live outside the sub-build; let its own ninja decide
    USES_TERMINAL_BUILD ON)
  set(HYMPI_SMPI_BIN_DIR ${PROJECT_BINARY_DIR}/smpi/bin CACHE INTERNAL "bin/ of the SMPI build")
  message(STATUS "hympi: SMPI build enabled (${HYMPI_SMPICXX}), binaries in ${HYMPI_SMPI_BIN_DIR}")
endif()
