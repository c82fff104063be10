# Installs headers, the library and a CMake package so that a downstream project can do
#   find_package(Kelp REQUIRED)  and  target_link_libraries(app PRIVATE Kelp::kelp)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(KELP_IN_TREE_KOKKOS)
  # An in-tree Kokkos (GPU build) is not exported with Kelp; such builds are used in place.
  return()
endif()

foreach(area kernels precond solvers distributed)
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${area})
    continue()
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${area}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kelp/${area}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/kelp.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kelp)

install(TARGETS kelp EXPORT KelpTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT KelpTargets NAMESPACE Kelp::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KelpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/KelpConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/KelpConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/KelpConfig.cmake ${PROJECT_BINARY_DIR}/KelpConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/KelpFindKokkos.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)
