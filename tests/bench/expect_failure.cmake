# Runs COMMAND ('|'-separated) and passes only if it exits nonzero AND its
# output contains REGEX exactly once (the error is printed by rank 0 alone).
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT 60)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a nonzero exit, got 0")
endif()
string(REGEX MATCHALL "${REGEX}" hits "${out}")
list(LENGTH hits n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected the message '${REGEX}' exactly once, found it ${n} times (exit ${rc})")
endif()
