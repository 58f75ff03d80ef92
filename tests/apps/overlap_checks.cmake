# hympi-bench-overlap checks the last result of every point (data that change every
# iteration) and exits 1 on a wrong one. The overlap tests in CMakeLists.txt match
# the table, which makes ctest ignore the exit code; these require exit 0 and no
# "check FAILED": every operation and variant, with and without test() polls, on
# regular nodes with two leaders and on irregular nodes with progress threads.
if(TARGET hympi-bench-overlap)
  hympi_add_mpi_test(NAME bench.overlap.np4.2nodes.checked NP 4 LABELS bench TIMEOUT 120 ENV HYMPI_RANKS_PER_NODE=2
                     COMMAND hympi-bench-overlap --ops allgather,allreduce --sizes 3,700 --polls 0,2 -i 4 -x 1
                             --leaders 2)
  set_tests_properties(bench.overlap.np4.2nodes.checked PROPERTIES FAIL_REGULAR_EXPRESSION "check FAILED")
  hympi_add_mpi_test(NAME bench.overlap.np3.irregular21.checked.progress_thread NP 3 LABELS bench TIMEOUT 120
                     ENV HYMPI_NODE_SIZES=2,1
                     COMMAND hympi-bench-overlap --ops allgather,allreduce --sizes 5 --polls 0,3 -i 4 -x 1
                             --progress-thread)
  set_tests_properties(bench.overlap.np3.irregular21.checked.progress_thread PROPERTIES
                       FAIL_REGULAR_EXPRESSION "check FAILED")
  # Cold caches (--cache cold): the results stay right with an eviction pass before every iteration.
  hympi_add_mpi_test(NAME bench.overlap.np2.onenode.checked.cold NP 2 LABELS bench TIMEOUT 120
                     COMMAND hympi-bench-overlap --ops allgather,allreduce --sizes 3,700 --polls 0,2 -i 3 -x 1
                             --cache cold --csv -)
  set_tests_properties(bench.overlap.np2.onenode.checked.cold PROPERTIES FAIL_REGULAR_EXPRESSION "check FAILED"
                       PASS_REGULAR_EXPRESSION "cold,[1-9][0-9]*\n")
endif()
