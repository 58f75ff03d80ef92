# HYMPI_GIT_REVISION: the short git revision of the source tree ("unknown" outside git),
# which every app writes into its CSV rows. Shared by the main project and the SMPI
# sub-project (apps/smpi/project), which both include this module.
include_guard(GLOBAL)
execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/..
                OUTPUT_VARIABLE HYMPI_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT HYMPI_GIT_REVISION)
  set(HYMPI_GIT_REVISION unknown)
endif()
