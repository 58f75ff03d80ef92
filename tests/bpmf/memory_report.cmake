# hympi-bpmf's memory report on one node of 2 ranks, pure vs hybrid, from the
# numbers the runs write to their CSV (nothing hard-coded): the hybrid run holds
# the training ratings once per node (its ratings_bytes_per_node times the node's
# ranks is the pure run's), both are at least the 24 bytes per rating the two
# orientations need, and the processes' own accounting agrees: PSS summed over the
# node is at least what the report says the node holds, RSS >= PSS, and pure's PSS
# exceeds hybrid's by at least half the ratings bytes hybrid saves. The synthetic data
# stream into the node copy: the node's peak RSS stays within 1.1x of its RSS at the end
# (streamed: 1.00x; every rank holding the whole matrix first, as before issue #31, is
# 1.15-1.18x here, where the processes' own 90 MiB each dilute it, and 1.4-1.5x at 10^7
# ratings; the issue's bound is 1.3x).
# Inputs: BPMF, LAUNCH ('|'-separated launcher prefix up to the -np flag), WORK.
string(REPLACE "|" ";" launch "${LAUNCH}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

foreach(policy pure hybrid)
  execute_process(
    COMMAND ${launch} 2 ${BPMF} --synth-rows 6000 --synth-cols 4000 --synth-density 0.15 --synth-rank 3 -K 4
            --burnin 1 --samples 1 --policy ${policy} --quiet --output-dir ${WORK} --csv ${policy}.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message("${policy}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hympi-bpmf --policy ${policy} failed (exit ${rc})")
  endif()
  file(STRINGS ${WORK}/${policy}.csv lines)
  list(GET lines 0 header)
  list(GET lines 1 row)
  string(REGEX REPLACE "\"[^\"]*\"" "quoted" row "${row}")  # quoted fields may hold commas
  string(REPLACE "," ";" header "${header}")
  string(REPLACE "," ";" row "${row}")
  foreach(column train_entries ratings_bytes_per_node latent_bytes_per_node node0_ranks node0_rss_bytes
                 node0_pss_bytes node0_peak_rss_bytes)
    list(FIND header ${column} at)
    if(at LESS 0)
      message(FATAL_ERROR "${policy}.csv has no column ${column}")
    endif()
    list(GET row ${at} value)
    set(${policy}_${column} ${value})
  endforeach()
endforeach()

math(EXPR pure_per_copy "${pure_ratings_bytes_per_node} / ${pure_node0_ranks}")
if(NOT (pure_node0_ranks EQUAL 2 AND hybrid_node0_ranks EQUAL 2))
  message(FATAL_ERROR "both runs should be one node of 2 ranks")
endif()
if(NOT (hybrid_ratings_bytes_per_node EQUAL pure_per_copy))
  message(FATAL_ERROR "hybrid ratings ${hybrid_ratings_bytes_per_node} B per node, expected pure's ${pure_ratings_bytes_per_node} / 2")
endif()
math(EXPR least "24 * ${hybrid_train_entries}")
if(NOT (hybrid_ratings_bytes_per_node GREATER_EQUAL least AND hybrid_train_entries GREATER 500000))
  message(FATAL_ERROR "ratings ${hybrid_ratings_bytes_per_node} B for ${hybrid_train_entries} ratings (at least 24 B each)")
endif()
foreach(policy pure hybrid)
  math(EXPR held "${${policy}_ratings_bytes_per_node} + ${${policy}_latent_bytes_per_node}")
  if(NOT (${policy}_node0_pss_bytes GREATER_EQUAL held))
    message(FATAL_ERROR "${policy}: the node's PSS ${${policy}_node0_pss_bytes} B is below the ${held} B it reports holding")
  endif()
  if(NOT (${policy}_node0_rss_bytes GREATER_EQUAL ${policy}_node0_pss_bytes))
    message(FATAL_ERROR "${policy}: RSS ${${policy}_node0_rss_bytes} below PSS ${${policy}_node0_pss_bytes}")
  endif()
  math(EXPR peak_x10 "${${policy}_node0_peak_rss_bytes} * 10")
  math(EXPR bound_x10 "${${policy}_node0_rss_bytes} * 11")
  if(NOT (${policy}_node0_peak_rss_bytes GREATER_EQUAL ${policy}_node0_rss_bytes AND peak_x10 LESS_EQUAL bound_x10))
    message(FATAL_ERROR "${policy}: the node's peak RSS ${${policy}_node0_peak_rss_bytes} B is not within 1.1x of "
                        "its RSS at the end, ${${policy}_node0_rss_bytes} B")
  endif()
endforeach()
math(EXPR saved "${pure_ratings_bytes_per_node} - ${hybrid_ratings_bytes_per_node}")
math(EXPR seen "${pure_node0_pss_bytes} - ${hybrid_node0_pss_bytes}")
math(EXPR half_saved "${saved} / 2")
if(NOT (seen GREATER_EQUAL half_saved))
  message(FATAL_ERROR "pure's PSS exceeds hybrid's by ${seen} B only; the report says hybrid saves ${saved} B of ratings")
endif()
message("ratings per node: pure ${pure_ratings_bytes_per_node} B, hybrid ${hybrid_ratings_bytes_per_node} B; "
        "node PSS: pure ${pure_node0_pss_bytes} B, hybrid ${hybrid_node0_pss_bytes} B (difference ${seen} B)")
