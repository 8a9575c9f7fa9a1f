# `cmake --install BUILD [--prefix P]`: the eqfuse binary, the static
# libraries, the public headers under include/eqfuse/, the built-in data
# (op schemas, rule library, device profiles; the libraries embed them too)
# under share/eqfuse/, and a package config so that a downstream project can
#
#   find_package(eqfuse REQUIRED)
#   target_link_libraries(app PRIVATE eqfuse::eqfuse)
#
# (examples/consumer/ is such a project; .ci/run builds it against the
# installed package).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS ${EQFUSE_LIBRARIES} eqfuse_all EXPORT eqfuseTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/eqfuse)
install(TARGETS eqfuse RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(dir base graph interp egraph extract cost bridge rewrites passes pipeline)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/eqfuse/${dir}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/cmake/eqfuse.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/eqfuse)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/graph/ops/ DESTINATION ${CMAKE_INSTALL_DATADIR}/eqfuse/ops)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rewrites/library/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/eqfuse/rules)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/cost/devices/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/eqfuse/devices)

install(EXPORT eqfuseTargets NAMESPACE eqfuse::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/eqfuse)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/eqfuseConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/eqfuseConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/eqfuse)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/eqfuseConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/eqfuseConfig.cmake ${PROJECT_BINARY_DIR}/eqfuseConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/eqfuse)
