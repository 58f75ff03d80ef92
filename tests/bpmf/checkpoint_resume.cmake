# Kill-and-resume of hympi-bpmf: a chain stopped hard (--stop-after: like a SIGKILL
# between two checkpoints) at several points, on one rank count, layout and policy,
# resumed on another, ends with the digests (predictions and predictive std) of the
# uninterrupted run; a chain resumed at its end prints them again. Refused, with a
# clear message and the checkpoint left as it was: another K, other data, a corrupt
# file, a new chain over an existing checkpoint.
# Inputs: BPMF, LAUNCH ('|'-separated launcher prefix up to the -np flag), WORK.
string(REPLACE "|" ";" launch "${LAUNCH}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(model --synthetic --synth-rows 300 --synth-cols 200 --synth-density 0.2 --alpha 4 --burnin 10 --samples 20
          --quiet)

# run(<np> <env|-> <result var> args...): sets <var>_rc and <var>_out.
function(run np envs var)
  string(REPLACE "|" ";" envs "${envs}")
  if(envs STREQUAL "-")
    set(envs "")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${envs} ${launch} ${np} ${BPMF} ${model} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  message("np=${np} ${envs} ${ARGN}: exit ${rc}\n${out}${err}")
  set(${var}_rc ${rc} PARENT_SCOPE)
  set(${var}_out "${out}${err}" PARENT_SCOPE)
endfunction()

function(digests text var)
  if(NOT text MATCHES "predictions digest ([0-9a-f]+), predictive std digest ([0-9a-f]+)")
    message(FATAL_ERROR "no digests in the output")
  endif()
  set(${var} "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()

run(1 - ref -K 6 --seed 9)
digests("${ref_out}" reference)

# stop-after:np:env:policy -> np:env:policy (iterations 1..30, checkpoints every 4)
set(cases "7:4:HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin:hybrid->1:-:pure"
          "14:2:HYMPI_RANKS_PER_NODE=1:hybrid->3:HYMPI_NODE_SIZES=2,1:pure"
          "25:3:-:pure->4:HYMPI_NODE_SIZES=3,1:hybrid")
set(n 0)
foreach(case IN LISTS cases)
  math(EXPR n "${n} + 1")
  string(REPLACE "->" ";" halves "${case}")
  list(GET halves 0 first)
  list(GET halves 1 second)
  string(REPLACE ":" ";" first "${first}")
  string(REPLACE ":" ";" second "${second}")
  list(GET first 0 stop)
  list(GET first 1 np1)
  list(GET first 2 env1)
  list(GET first 3 policy1)
  list(GET second 0 np2)
  list(GET second 1 env2)
  list(GET second 2 policy2)
  set(dir ${WORK}/chain${n})
  run(${np1} ${env1} killed -K 6 --seed 9 --policy ${policy1} --checkpoint-every 4 --checkpoint-dir ${dir} --stop-after ${stop})
  if(killed_rc EQUAL 0 OR NOT EXISTS ${dir}/chain.ckpt)
    message(FATAL_ERROR "the run stopped after ${stop} exited 0 or left no checkpoint")
  endif()
  run(${np2} ${env2} resumed -K 6 --seed 9 --policy ${policy2} --checkpoint-every 4 --resume ${dir})
  digests("${resumed_out}" got)
  if(NOT resumed_rc EQUAL 0 OR NOT got STREQUAL reference)
    message(FATAL_ERROR "stopped after ${stop} on ${np1}, resumed on ${np2}: ${got} (exit ${resumed_rc}), "
                        "uninterrupted ${reference}")
  endif()
endforeach()

# Resumed at its end (the last checkpoint is the finished chain): the same digests, nothing run.
run(2 - again -K 6 --seed 9 --resume ${WORK}/chain1)
digests("${again_out}" got)
if(NOT got STREQUAL reference OR NOT again_out MATCHES "at iteration 30 of 30")
  message(FATAL_ERROR "a finished chain resumed gives ${got}, expected ${reference}")
endif()

# Refusals: exit 2, the message once, the checkpoint untouched.
file(SHA256 ${WORK}/chain1/chain.ckpt before)
file(MAKE_DIRECTORY ${WORK}/corrupt)
file(READ ${WORK}/chain1/chain.ckpt bytes HEX)
string(SUBSTRING "${bytes}" 0 2000 head)
string(SUBSTRING "${bytes}" 2001 -1 rest)
string(SUBSTRING "${bytes}" 2000 1 nibble)
if(nibble STREQUAL "0")
  set(nibble 1)
else()
  set(nibble 0)
endif()
file(WRITE ${WORK}/corrupt/hex "${head}${nibble}${rest}")
execute_process(COMMAND xxd -r -p ${WORK}/corrupt/hex ${WORK}/corrupt/chain.ckpt RESULT_VARIABLE rc)
set(refusals "other K: checkpoint K 6, this run K 5#-K|5|--seed|9|--resume|${WORK}/chain1"
             "made from other data#-K|6|--seed|9|--synth-seed|3|--resume|${WORK}/chain1"
             "other seed#-K|6|--seed|10|--resume|${WORK}/chain1"
             "exists: continue it with --resume#-K|6|--seed|9|--checkpoint-every|4|--checkpoint-dir|${WORK}/chain1")
if(rc EQUAL 0)
  list(APPEND refusals "is corrupt \\(checksum mismatch\\)#-K|6|--seed|9|--resume|${WORK}/corrupt")
endif()
foreach(refusal IN LISTS refusals)
  string(REPLACE "#" ";" parts "${refusal}")
  list(GET parts 0 regex)
  list(GET parts 1 args)
  string(REPLACE "|" ";" args "${args}")
  run(2 - refused ${args})
  if(NOT refused_rc EQUAL 2 OR NOT refused_out MATCHES "hympi-bpmf: error: [^\n]*${regex}")
    message(FATAL_ERROR "expected exit 2 and '${regex}'")
  endif()
endforeach()
file(SHA256 ${WORK}/chain1/chain.ckpt after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "a refused run changed the checkpoint")
endif()
