# Saved samples and `hympi-bpmf predict`: a 2-rank run saves every sample (.npy);
# predict on 1 and 3 ranks (another layout) gives the digests of the run's own test
# predictions and standard deviations (bitwise), for both std kinds; a model
# directory without samples, a sample with a file missing (also sample 1000000), pairs outside the model
# and a new run saving into another run's samples are refused (exit 2).
# Inputs: SYNTH, BPMF, LAUNCH ('|'-separated launcher prefix up to the -np flag), WORK.
string(REPLACE "|" ";" launch "${LAUNCH}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${SYNTH} --rows 300 --cols 200 --rank 3 --density 0.2 --seed 3 --train ${WORK}/train.mm
                        --test ${WORK}/test.mm RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hympi-bpmf-synth failed")
endif()
file(WRITE ${WORK}/outside.mm "%%MatrixMarket matrix coordinate real general\n400 200 1\n301 1 1.0\n")

function(run np envs var)
  string(REPLACE "|" ";" envs "${envs}")
  if(envs STREQUAL "-")
    set(envs "")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${envs} ${launch} ${np} ${BPMF} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  message("np=${np} ${envs} ${ARGN}: exit ${rc}\n${out}${err}")
  if(NOT out MATCHES "predictions digest ([0-9a-f]+), predictive std digest ([0-9a-f]+)")
    set(${var} "exit ${rc}: ${out}${err}" PARENT_SCOPE)
  else()
    set(${var} "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}" PARENT_SCOPE)
  endif()
endfunction()

foreach(kind noise latent)
  set(dir ${WORK}/${kind})
  run(2 HYMPI_RANKS_PER_NODE=1 want --train ${WORK}/train.mm --test ${WORK}/test.mm -K 5 --burnin 5 --samples 12
      --policy hybrid --quiet --predictive-std ${kind} --save-samples-every 1 --samples-dir ${dir})
  foreach(where "1:-" "3:HYMPI_NODE_SIZES=2,1")
    string(REPLACE ":" ";" where "${where}")
    list(GET where 0 np)
    list(GET where 1 env)
    run(${np} ${env} got predict --model ${dir} --pairs ${WORK}/test.mm --predictive-std ${kind}
        --mean-output ${WORK}/mean.mm --std-output ${WORK}/std.mm)
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "predict on ${np} ranks (${kind}): ${got}; the run printed ${want}")
    endif()
  endforeach()
endforeach()

# A new run does not mix its samples with another run's.
execute_process(COMMAND ${launch} 2 ${BPMF} --train ${WORK}/train.mm --test ${WORK}/test.mm -K 5 --burnin 5
                        --samples 12 --quiet --save-samples-every 1 --samples-dir ${WORK}/noise
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT "${out}${err}" MATCHES "hympi-bpmf: error: [^\n]*holds the samples of another run")
  message(FATAL_ERROR "a run saving into another run's samples: exit ${rc}:\n${out}${err}")
endif()

# A sample with a file missing is refused, not left out of the average (only the
# first sample's U was checked: a missing -V.npy gave "from 11 samples" and exit 0).
# Sample 1000000 (%06d writes 7 digits) counts as a sample too: alone it is incomplete
# (it was ignored).
foreach(case "V#3#V" "Lambda_V#3#Lambda_V" "added#1000000#U")
  string(REPLACE "#" ";" case "${case}")
  list(GET case 0 part)
  list(GET case 1 index)
  list(GET case 2 missing)
  file(REMOVE_RECURSE ${WORK}/incomplete)
  file(COPY ${WORK}/noise/ DESTINATION ${WORK}/incomplete)
  if(part STREQUAL "added")
    file(COPY_FILE ${WORK}/incomplete/sample-000003-V.npy ${WORK}/incomplete/sample-1000000-V.npy)
    set(file sample-1000000-${missing}.npy)
  else()
    file(REMOVE ${WORK}/incomplete/sample-000003-${part}.npy)
    set(file sample-000003-${missing}.npy)
  endif()
  execute_process(COMMAND ${launch} 2 ${BPMF} predict --model ${WORK}/incomplete --pairs ${WORK}/test.mm
                          --mean-output ${WORK}/mean.mm --std-output ${WORK}/std.mm
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 2 OR NOT "${out}${err}" MATCHES "hympi-bpmf: error: [^\n]*sample ${index} [^\n]*${file}' is missing")
    message(FATAL_ERROR "predict with sample ${index} incomplete (${part}): exit ${rc}:\n${out}${err}")
  endif()
endforeach()

set(refusals "holds no saved samples#--model|${WORK}|--pairs|${WORK}/test.mm"
             "outside the training matrix#--model|${WORK}/noise|--pairs|${WORK}/outside.mm")
foreach(refusal IN LISTS refusals)
  string(REPLACE "#" ";" parts "${refusal}")
  list(GET parts 0 regex)
  list(GET parts 1 args)
  string(REPLACE "|" ";" args "${args}")
  file(WRITE ${WORK}/model.txt "format = hympi-bpmf-samples-1\nK = 5\nalpha = 2\nmean = 0\nrows = 300\ncols = 200\nseed = 1\nburnin = 5\n")
  execute_process(COMMAND ${launch} 2 ${BPMF} predict ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 2 OR NOT "${out}${err}" MATCHES "hympi-bpmf: error: [^\n]*${regex}")
    message(FATAL_ERROR "predict ${args}: expected exit 2 and '${regex}', got exit ${rc}:\n${out}${err}")
  endif()
endforeach()
