# End-to-end check of the tools: hympi-bpmf-synth writes gzipped Matrix Market
# files, hympi-bpmf reads them on 1..4 ranks with both policies and emulated
# layouts; every run must print the same predictions digest (bitwise-equal averaged
# predictions) and an averaged test RMSE below 1.12 x the noise.
# Inputs: SYNTH, BPMF, LAUNCH ('|'-separated launcher prefix up to the -np flag), WORK.
string(REPLACE "|" ";" launch "${LAUNCH}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(noise 0.5)
execute_process(COMMAND ${SYNTH} --rows 300 --cols 200 --rank 3 --density 0.2 --noise ${noise} --offset 5
                        --seed 3 --train ${WORK}/train.mm.gz --test ${WORK}/test.mm.gz
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hympi-bpmf-synth failed")
endif()

# np:policy:environment:extra options ('-' = none; lists separated by '|')
set(runs "1:pure:-:-" "2:hybrid:-:-" "2:hybrid:HYMPI_RANKS_PER_NODE=1:--sync|barrier|--barrier-timing"
         "3:pure:HYMPI_NODE_SIZES=2,1:-" "4:hybrid:HYMPI_RANKS_PER_NODE=2|HYMPI_PLACEMENT=roundrobin:-")
set(reference "")
foreach(spec IN LISTS runs)
  string(REPLACE ":" ";" run "${spec}")
  list(GET run 0 np)
  list(GET run 1 policy)
  list(GET run 2 envs)
  list(GET run 3 extra)
  string(REPLACE "|" ";" extra "${extra}")
  if(extra STREQUAL "-")
    set(extra "")
  endif()
  string(REPLACE "|" ";" envs "${envs}")
  if(envs STREQUAL "-")
    set(envs "")
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${envs} ${launch} ${np} ${BPMF} --train ${WORK}/train.mm.gz
            --test ${WORK}/test.mm.gz -K 6 --alpha 4 --burnin 10 --samples 20 --seed 9 --policy ${policy} --quiet
            --output-dir ${WORK} --csv runs.csv --save-predictions ${extra}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message("run np=${np} policy=${policy} env=${envs} ${extra}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hympi-bpmf failed (exit ${rc})")
  endif()
  if(NOT out MATCHES "predictions digest ([0-9a-f]+)")
    message(FATAL_ERROR "no predictions digest in the output")
  endif()
  set(digest ${CMAKE_MATCH_1})
  if(NOT out MATCHES "test RMSE ([0-9.]+)")
    message(FATAL_ERROR "no test RMSE in the output")
  endif()
  set(rmse ${CMAKE_MATCH_1})
  if(reference STREQUAL "")
    set(reference ${digest})
    # CMake has no floating-point math: compare the RMSE against the bound with a 4-digit fixed point.
    string(REGEX REPLACE "^0\\.([0-9][0-9][0-9][0-9]).*" "\\1" rmse4 "${rmse}")
    if(NOT rmse MATCHES "^0\\." OR rmse4 GREATER_EQUAL 5600)  # 1.12 x 0.5
      message(FATAL_ERROR "averaged test RMSE ${rmse} is not below 1.12 x noise = 0.56")
    endif()
  elseif(NOT digest STREQUAL reference)
    message(FATAL_ERROR "np=${np} ${policy} ${envs}: digest ${digest} differs from the 1-rank digest ${reference}")
  endif()
endforeach()
if(NOT EXISTS ${WORK}/predictions.mm OR NOT EXISTS ${WORK}/runs.csv)
  message(FATAL_ERROR "--save-predictions or --csv wrote nothing")
endif()
# Data rows start with the ISO date of the run.
file(STRINGS ${WORK}/runs.csv rows REGEX "^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T")
list(LENGTH rows nrows)
if(NOT nrows EQUAL 5)
  message(FATAL_ERROR "runs.csv has ${nrows} data rows, expected 5")
endif()
