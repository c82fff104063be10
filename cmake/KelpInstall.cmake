# Installs headers, the library and a CMake package so that a downstream project can do
#   find_package(Kelp REQUIRED)              target_link_libraries(app PRIVATE Kelp::kelp)
#   find_package(Kelp REQUIRED COMPONENTS mpi)  ...                   Kelp::kelp_mpi
# Headers go to <prefix>/include/kelp/<area>/ and are included as <kelp/kernels/...>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

foreach(area kernels precond solvers distributed)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${area}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kelp/${area}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/kelp.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kelp)

install(TARGETS kelp EXPORT KelpTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT KelpTargets NAMESPACE Kelp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)
if(KELP_ENABLE_MPI)
  install(TARGETS kelp_mpi EXPORT KelpMpiTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT KelpMpiTargets NAMESPACE Kelp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)
endif()

# The Kokkos this Kelp was built with, so a consumer finds the same one by default: the one
# installed beside Kelp for in-tree (CUDA) builds, whose Kokkos installs itself with Kelp, else
# the one found at configure time.
if(KELP_IN_TREE_KOKKOS)
  set(KELP_KOKKOS_DIR "")
else()
  set(KELP_KOKKOS_DIR "${Kokkos_DIR}")
endif()
# Its backends, sorted, so that KelpConfig.cmake can refuse a consumer's Kokkos with others (as
# the installed KokkosConfig.cmake lists them; an in-tree Kokkos installs itself beside Kelp).
set(KELP_KOKKOS_DEVICES "")
if(NOT KELP_IN_TREE_KOKKOS AND DEFINED Kokkos_DEVICES)
  set(KELP_KOKKOS_DEVICES ${Kokkos_DEVICES})
  list(SORT KELP_KOKKOS_DEVICES)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KelpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/KelpConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/KelpConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/KelpConfig.cmake ${PROJECT_BINARY_DIR}/KelpConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/KelpFindKokkos.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Kelp)
