# Install rules and the exported CMake package: find_package(hympi) gives
# hympi::hympi (C++ and C) and hympi::hympi_fortran.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS hympi hympi_fortran EXPORT hympiTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/lib/fortran_modules/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hympi/fortran)
install(EXPORT hympiTargets NAMESPACE hympi:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hympi)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hympiConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hympiConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hympi)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hympiConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hympiConfig.cmake ${PROJECT_BINARY_DIR}/hympiConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hympi)
