# MPI test registration. Every MPI test runs under the chosen launcher with the
# environment that lets Open MPI run as root and oversubscribe the 2-core machine.
include_guard(GLOBAL)

# Waiting ranks yield their core: Open MPI does so by itself only when a job has more
# ranks than slots, but a 2-rank test shares its 2 cores with the test beside it and
# with the build. MPICH 4 (ch4) has no such setting: its waits yield only under
# MPI_THREAD_MULTIPLE (MPIR_CVAR_POLLS_BEFORE_YIELD is ch3's and does nothing there;
# MPIR_CVAR_ASYNC_PROGRESS adds a polling thread per rank, twice as slow).
set(HYMPI_TEST_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mpi_yield_when_idle=1;OPENBLAS_NUM_THREADS=1")
set(HYMPI_LAUNCH_FLAGS "")
if(HYMPI_MPI_FAMILY STREQUAL "openmpi")
  set(HYMPI_LAUNCH_FLAGS --oversubscribe --bind-to none)
endif()
# MPICH's tests preload tests/support/mpich_yield.c, the same yield for MPICH: a poll of
# UCX (Debian's ch4:ucx) that finds nothing gives up the core. 4-rank MPICH tests then
# run 3-5x faster on 2 cores; no message or MPI code path changes.
set(HYMPI_TEST_PRELOAD "")
if(HYMPI_MPI_FAMILY STREQUAL "mpich")
  add_library(hympi_mpich_yield MODULE ${PROJECT_SOURCE_DIR}/tests/support/mpich_yield.c)
  target_link_libraries(hympi_mpich_yield PRIVATE ${CMAKE_DL_LIBS} hympi_warnings)
  # Not libmpich (the wrapper adds it): every process of a test loads this library.
  target_link_options(hympi_mpich_yield PRIVATE LINKER:--as-needed)
  set_target_properties(hympi_mpich_yield PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/support)
  set(HYMPI_TEST_PRELOAD ${PROJECT_BINARY_DIR}/tests/support/${CMAKE_SHARED_MODULE_PREFIX}hympi_mpich_yield${CMAKE_SHARED_MODULE_SUFFIX})
  string(APPEND HYMPI_TEST_ENV ";LD_PRELOAD=${HYMPI_TEST_PRELOAD}")
endif()

# The largest job a test may launch. Oversubscribed MPICH busy-polls, so its
# builds default to 4 ranks on this 2-core class of machine; raise it on bigger ones.
if(HYMPI_MPI_FAMILY STREQUAL "mpich")
  set(HYMPI_TEST_MAX_NP 4 CACHE STRING "Largest rank count an MPI test may use")
else()
  set(HYMPI_TEST_MAX_NP 6 CACHE STRING "Largest rank count an MPI test may use")
endif()

# hympi_add_mpi_test(NAME <name> NP <n> COMMAND <target-or-path> [args...]
#                    [ENV VAR=value...] [LABELS l...] [TIMEOUT s] [WRAPPER cmd...])
# WRAPPER runs the whole mpiexec line (e.g. in a private mount namespace); it may
# exit 77 to skip the test.
function(hympi_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;NP;TIMEOUT" "COMMAND;ENV;LABELS;WRAPPER" ${ARGN})
  if(T_NP GREATER HYMPI_TEST_MAX_NP)
    return()
  endif()
  list(POP_FRONT T_COMMAND exe)
  if(TARGET ${exe})
    set(exe $<TARGET_FILE:${exe}>)
  endif()
  if(HYMPI_TEST_PRELOAD)  # a test's own preload keeps the yield beside it
    list(TRANSFORM T_ENV REPLACE "^LD_PRELOAD=(.*)$" "LD_PRELOAD=\\1:${HYMPI_TEST_PRELOAD}")
  endif()
  add_test(NAME ${T_NAME}
           COMMAND ${T_WRAPPER} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NP} ${HYMPI_LAUNCH_FLAGS}
                   ${MPIEXEC_PREFLAGS} ${exe} ${MPIEXEC_POSTFLAGS} ${T_COMMAND})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set(procs ${T_NP})
  if(procs GREATER 2)
    set(procs 2)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES
    ENVIRONMENT "${HYMPI_TEST_ENV};${T_ENV}"
    LABELS "mpi;${T_LABELS}" TIMEOUT ${T_TIMEOUT} PROCESSORS ${procs})
  if(T_WRAPPER)
    set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endfunction()

# hympi_split_fields(<text> <var>...): the ':'-separated fields of <text>, one to each
# <var> in turn in the caller's scope (empty where the text has fewer fields); the
# spelling of the layout and case lists below ("4:2nodes:HYMPI_RANKS_PER_NODE=2").
function(hympi_split_fields text)
  string(REPLACE ":" ";" fields "${text}")
  list(LENGTH fields count)
  set(i 0)
  foreach(var IN LISTS ARGN)
    set(value "")
    if(i LESS count)
      list(GET fields ${i} value)
    endif()
    set(${var} "${value}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()

# The emulated node layouts every collective-level test runs over:
# "<np>:<suffix>:<env...>" with env entries separated by '|'.
set(HYMPI_LAYOUTS
  "1:onenode:"
  "2:onenode:"
  "2:2nodes:HYMPI_RANKS_PER_NODE=1"
  "3:onenode:"
  "3:irregular21:HYMPI_NODE_SIZES=2,1"
  "3:rr2nodes:HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin"
  "4:onenode:"
  "4:2nodes:HYMPI_RANKS_PER_NODE=2"
  "4:rr2nodes:HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin"
  "4:irregular31:HYMPI_NODE_SIZES=3,1"
  "4:rrirregular13:HYMPI_NODE_SIZES=1,3|HYMPI_PLACEMENT=roundrobin"
  "6:3nodes:HYMPI_RANKS_PER_NODE=2"
  "6:irregular42:HYMPI_NODE_SIZES=4,2"
  "6:rr3nodes:HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin"
  "6:irregular123:HYMPI_NODE_SIZES=1,2,3")
if(HYMPI_MPI_FAMILY STREQUAL "mpich")
  # MPICH's own clique emulation changes what MPI_Comm_split_type(SHARED) returns.
  list(APPEND HYMPI_LAYOUTS
    "4:cliques2rr:MPIR_CVAR_NUM_CLIQUES=2"
    "4:cliques2block:MPIR_CVAR_NUM_CLIQUES=2|MPIR_CVAR_CLIQUES_BY_BLOCK=1"
    "3:cliques2block:MPIR_CVAR_NUM_CLIQUES=2|MPIR_CVAR_CLIQUES_BY_BLOCK=1"
    "3:cliques3:MPIR_CVAR_NUM_CLIQUES=3"
    "4:cliques2rr-emulated:MPIR_CVAR_NUM_CLIQUES=2|HYMPI_RANKS_PER_NODE=1")
endif()

# hympi_add_layout_tests(PREFIX <p> COMMAND <target> [args...] [MAX_NP n] [LABELS ...]
#                        [LAYOUTS ...] [TIMEOUT s] [WRAPPER cmd...])
# registers <p>.np<N>.<layout> for every layout above (up to MAX_NP ranks).
function(hympi_add_layout_tests)
  cmake_parse_arguments(T "" "PREFIX;MAX_NP;TIMEOUT" "COMMAND;LABELS;LAYOUTS;WRAPPER" ${ARGN})
  if(NOT T_MAX_NP)
    set(T_MAX_NP 6)
  endif()
  if(NOT T_LAYOUTS)
    set(T_LAYOUTS ${HYMPI_LAYOUTS})
  endif()
  foreach(layout IN LISTS T_LAYOUTS)
    hympi_split_fields("${layout}" np suffix envs)
    string(REPLACE "|" ";" env "${envs}")
    if(np GREATER T_MAX_NP)
      continue()
    endif()
    hympi_add_mpi_test(NAME ${T_PREFIX}.np${np}.${suffix} NP ${np} COMMAND ${T_COMMAND}
                       ENV ${env} LABELS ${T_LABELS} TIMEOUT ${T_TIMEOUT} WRAPPER ${T_WRAPPER})
  endforeach()
endfunction()

# hympi_add_unit_test(NAME <test> TARGET <exe> SOURCES <file...> LIBS <lib...>
#                     [INCLUDES <dir...>] [LABELS l...] [TIMEOUT s])
# A test program run without an MPI launch, as one ctest test (GoogleTest programs
# whose cases are listed one by one use gtest_discover_tests instead): builds TARGET
# with the project's warnings and registers NAME with the labels "unit;LABELS".
function(hympi_add_unit_test)
  cmake_parse_arguments(T "" "NAME;TARGET;TIMEOUT" "SOURCES;LIBS;INCLUDES;LABELS" ${ARGN})
  add_executable(${T_TARGET} ${T_SOURCES})
  if(T_INCLUDES)
    target_include_directories(${T_TARGET} PRIVATE ${T_INCLUDES})
  endif()
  target_link_libraries(${T_TARGET} PRIVATE ${T_LIBS} hympi_warnings)
  add_test(NAME ${T_NAME} COMMAND ${T_TARGET})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "unit;${T_LABELS}" TIMEOUT ${T_TIMEOUT})
endfunction()

# hympi_add_face_program(<target> <source>): a program of the library's C or Fortran
# face (or C++), linked as its language needs: Fortran against hympi::hympi_fortran by
# the Fortran driver; C and C++ against hympi::hympi with the project's warnings, by the
# C++ driver (the library is C++).
function(hympi_add_face_program target source)
  add_executable(${target} ${source})
  if(source MATCHES "\\.f90$")
    target_link_libraries(${target} PRIVATE hympi::hympi_fortran)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE Fortran)
  else()
    target_link_libraries(${target} PRIVATE hympi::hympi hympi_warnings)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()
