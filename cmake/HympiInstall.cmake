# Install rules, the exported CMake package and the pkg-config files, all in the
# install component `hympi` (the library alone: cmake --install build --component hympi).
# find_package(hympi [COMPONENTS C CXX Fortran]) gives hympi::hympi (C++ and C) and
# hympi::hympi_fortran; pkg-config gives hympi and hympi_fortran. With the apps built
# and ScaLAPACK found, also the drop-in pdgemm: hympi::hympi_scalapack and pkg-config
# hympi_scalapack (its engine libraries hympi_hsumma and hympi_summa are installed as its runtime).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(_hympi_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/hympi)

install(TARGETS hympi hympi_fortran EXPORT hympiTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT hympi
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT hympi
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT hympi)
if(TARGET hympi_scalapack)
  install(TARGETS hympi_summa hympi_hsumma hympi_scalapack EXPORT hympiTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT hympi
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT hympi
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT hympi)
  install(FILES ${PROJECT_SOURCE_DIR}/hsumma/scalapack/include/hympi/pdgemm.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hympi COMPONENT hympi)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT hympi)
install(DIRECTORY ${PROJECT_BINARY_DIR}/lib/fortran_modules/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hympi/fortran
        COMPONENT hympi)
install(EXPORT hympiTargets NAMESPACE hympi:: DESTINATION ${_hympi_cmake_dir} COMPONENT hympi)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hympiConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hympiConfig.cmake INSTALL_DESTINATION ${_hympi_cmake_dir})
# 0.x: a new minor version may change the API and ABI (the SONAME carries major.minor).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hympiConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hympiConfig.cmake ${PROJECT_BINARY_DIR}/hympiConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/hympiMpiFamily.cmake
        DESTINATION ${_hympi_cmake_dir} COMPONENT hympi)

# pkg-config: relocatable (prefix relative to the .pc file).
file(RELATIVE_PATH HYMPI_PC_PREFIX_FROM_PCDIR /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
set(_hympi_pcs hympi hympi_fortran)
if(TARGET hympi_scalapack)
  list(APPEND _hympi_pcs hympi_scalapack)
endif()
foreach(pc IN LISTS _hympi_pcs)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT hympi)
endforeach()
