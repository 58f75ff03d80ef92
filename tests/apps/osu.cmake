# hympi-bench-collectives --osu: output parsed as OSU-reading tools parse it
# (check_osu.py), validated data (-c) over emulated layouts for each operation and
# variant, and -m / mode errors that must fail with one clear message.

# osu_test(<np> <name> <env|env...> <min> <max> [benchmark options] [CHECK_VS_MPI]): -c -f, 3 iterations.
function(osu_test np name envs min max)
  if(np GREATER HYMPI_TEST_MAX_NP)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 5 arg "CHECK_VS_MPI" "" "")  # CHECK_VS_MPI: --vs-mpi's columns
  set(check)
  if(arg_CHECK_VS_MPI)
    set(check --vs-mpi)
  endif()
  string(REPLACE "|" ";" env "${envs}")
  set(test bench.osu.np${np}.${name})
  add_test(NAME ${test}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_osu.py --min ${min} --max ${max} --full
                   --iterations 3 --validate ${check} -- ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np}
                   ${HYMPI_LAUNCH_FLAGS} ${_bench} --osu -f -c -i 3 -x 2 -m ${min}:${max} ${arg_UNPARSED_ARGUMENTS})
  set(procs ${np})
  if(procs GREATER 2)
    set(procs 2)
  endif()
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "${HYMPI_TEST_ENV};${env}" LABELS "mpi;bench;osu"
                       TIMEOUT 60 PROCESSORS ${procs})
endfunction()
osu_test(1 allgather.pure "" 1 64)
osu_test(2 allgather.pure "" 1 65536)
osu_test(3 allgather.hybrid-flags.irregular21 "HYMPI_NODE_SIZES=2,1" 3 3072 --variants hybrid-flags)
osu_test(4 allgather.hybrid-barrier.rr2nodes "HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin" 8 8192
         --ops allgather --variants hybrid-barrier)
osu_test(2 bcast.pure.2nodes "HYMPI_RANKS_PER_NODE=1" 1 16384 --ops bcast --root 1)
osu_test(3 bcast.hybrid-flags.irregular21 "HYMPI_NODE_SIZES=2,1" 1 4096 --ops bcast --root 2 --variants hybrid-flags)
# Reductions: sizes below one element are skipped, so the checked range starts at 8 bytes.
osu_test(2 allreduce.pure "" 8 131072 --ops allreduce)
# Gather and Scatter (osu_gather / osu_scatter) to / from a non-zero root, in bytes; two with
# --vs-mpi: MPI_Gather / MPI_Scatter timed beside them (check_osu.py --vs-mpi reads the columns).
osu_test(3 gather.hybrid-flags.irregular21.vsmpi "HYMPI_NODE_SIZES=2,1" 1 4096 --ops gather --root 2
         --variants hybrid-flags --vs-mpi CHECK_VS_MPI)
osu_test(4 scatter.pure.rr2nodes.vsmpi "HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin" 1 4096 --ops scatter
         --root 3 --vs-mpi CHECK_VS_MPI)
osu_test(4 scatter.hybrid-barrier2.rr2nodes "HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin" 1 4096
         --ops scatter --root 1 --variants hybrid-barrier@2)
# -z: OSU's tail latencies after the Validation column (check_osu.py --tail reads them).
function(osu_tail_test np name min max)
  set(test bench.osu.np${np}.${name})
  add_test(NAME ${test}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_osu.py --min ${min} --max ${max} --full
                   --iterations 20 --validate --tail -- ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np}
                   ${HYMPI_LAUNCH_FLAGS} ${_bench} --osu -f -c -z -i 20 -x 2 -m ${min}:${max} ${ARGN})
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "${HYMPI_TEST_ENV}" LABELS "mpi;bench;osu" TIMEOUT 60
                       PROCESSORS 2)
endfunction()
osu_tail_test(2 allreduce.pure.tail 8 4096 --ops allreduce --type float)
osu_tail_test(2 allgather.pure.tail 1 65536)
osu_test(4 allreduce.pure.hierarchical.rr2nodes "HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin" 8 8192
         --ops allreduce --baseline hierarchical)
osu_test(3 allreduce.hybrid-flags.irregular21 "HYMPI_NODE_SIZES=2,1" 8 65536 --ops allreduce --variants hybrid-flags)
osu_test(4 reduce.hybrid-barrier.rr2nodes "HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin" 4 8192 --ops reduce
         --root 3 --variants hybrid-barrier --type float)

# Bad input: nonzero exit, one message naming the problem.
function(osu_expect_failure name regex)
  set(command ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${HYMPI_LAUNCH_FLAGS} ${_bench} ${ARGN})
  string(REPLACE ";" "|" command "${command}")
  add_test(NAME bench.osu.bad.${name}
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" "-DREGEX=${regex}" -P
                   ${PROJECT_SOURCE_DIR}/cmake/HympiExpectFailure.cmake)
  set_tests_properties(bench.osu.bad.${name} PROPERTIES ENVIRONMENT "${HYMPI_TEST_ENV}" LABELS "mpi;bench;osu"
                       TIMEOUT 60 PROCESSORS 2)
endfunction()
osu_expect_failure(min_above_max "-m: MIN \\(64\\) is larger than MAX \\(8\\)" --osu -m 64:8)
osu_expect_failure(not_a_number "-m 'abc': expected \\[MIN:\\]MAX" --osu -m abc)
osu_expect_failure(bad_max "-m '8:x': expected \\[MIN:\\]MAX" --osu -m 8:x)
osu_expect_failure(no_min "-m ':64': expected \\[MIN:\\]MAX" --osu -m :64)
osu_expect_failure(zero_min "-m: the smallest size must be >= 1 byte \\(got 0\\)" --osu -m 0:64)
osu_expect_failure(too_large "-m: the largest size must be <= 1073741824 bytes" --osu -m 2147483648)
osu_expect_failure(m_without_osu "-m, -f, -z and --vs-mpi belong to OSU mode: add --osu" -m 64)
osu_expect_failure(z_without_osu "-m, -f, -z and --vs-mpi belong to OSU mode: add --osu" -z)
osu_expect_failure(two_ops "--osu measures one operation per run" --osu --ops allgather,bcast)
osu_expect_failure(allgatherv "--osu: --ops must be allgather, bcast, allreduce, reduce, gather or scatter" --osu
                   --ops allgatherv)
osu_expect_failure(node_barrier "--osu: --variants must be pure" --osu --variants node-barrier)
