# Install rules: headers, the exported target, the package config + version, and pkg-config.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TRACTRIX_CMAKE_DIR "${CMAKE_INSTALL_DATADIR}/cmake/tractrix")

install(TARGETS tractrix tractrix_io EXPORT tractrixTargets)
if(TARGET tractrix_landxml)
  install(TARGETS tractrix_landxml EXPORT tractrixTargets)
endif()
install(DIRECTORY include/tractrix DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT tractrixTargets NAMESPACE tractrix:: DESTINATION ${TRACTRIX_CMAKE_DIR})

configure_package_config_file(cmake/tractrixConfig.cmake.in
  "${PROJECT_BINARY_DIR}/tractrixConfig.cmake" INSTALL_DESTINATION ${TRACTRIX_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/tractrixConfigVersion.cmake"
  COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/tractrixConfig.cmake" "${PROJECT_BINARY_DIR}/tractrixConfigVersion.cmake"
  DESTINATION ${TRACTRIX_CMAKE_DIR})

configure_file(cmake/tractrix.pc.in "${PROJECT_BINARY_DIR}/tractrix.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/tractrix.pc" DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)
