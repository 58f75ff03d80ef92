# Warnings stay at zero: -Wall -Wextra on our own targets only (not on third-party headers).
add_library(hympi_warnings INTERFACE)
target_compile_options(hympi_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wshadow -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:Fortran>:-Wall -Wno-maybe-uninitialized>)
if(HYMPI_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
