# The short git revision of the source tree ("unknown" outside git, "-dirty" when files
# differ from it), which every app writes into its CSV rows.
# - Included: HYMPI_GIT_REVISION, the revision at configure time (the SMPI sub-project
#   uses it), and hympi_git_revision_header(target), which gives the target a header
#   hympi_git_revision.h rewritten at every build, so rows name the revision that was
#   built, not the one that was configured.
# - Run as a script (cmake -DSOURCE_DIR=.. -DOUTPUT=.. -P this file): writes that header,
#   touching it only when the revision changed.
function(_hympi_read_git_revision source_dir out)
  execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${source_dir}
                  OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
  if(failed OR NOT rev)
    set(${out} unknown PARENT_SCOPE)
    return()
  endif()
  execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${source_dir} RESULT_VARIABLE dirty
                  OUTPUT_QUIET ERROR_QUIET)
  if(dirty)
    string(APPEND rev -dirty)
  endif()
  set(${out} ${rev} PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  _hympi_read_git_revision(${SOURCE_DIR} rev)
  set(text "#define HYMPI_GIT_REVISION \"${rev}\"\n")
  if(EXISTS ${OUTPUT})
    file(READ ${OUTPUT} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${OUTPUT} "${text}")
  endif()
  return()
endif()

include_guard(GLOBAL)
_hympi_read_git_revision(${CMAKE_CURRENT_LIST_DIR}/.. HYMPI_GIT_REVISION)

function(hympi_git_revision_header target)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/git_revision)
  add_custom_target(${target}_git_revision
                    COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${dir}/hympi_git_revision.h
                            -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
                    BYPRODUCTS ${dir}/hympi_git_revision.h
                    COMMENT "git revision for the apps' CSV rows" VERBATIM)
  add_dependencies(${target} ${target}_git_revision)
  target_include_directories(${target} PRIVATE ${dir})
endfunction()
