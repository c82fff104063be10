# Finds Kokkos 3.4, for Kelp's own build and, through KelpConfig.cmake, for its consumers.
#
# Kelp's default build uses the OpenMP Kokkos that scripts/build_kokkos.sh builds from Debian's
# trilinos source (found through Kokkos_ROOT). With KELP_SYSTEM_KOKKOS=ON it uses Debian's
# libtrilinos-kokkos-dev (Serial only), whose KokkosConfig.cmake points Kokkos::kokkos at the
# non-existent /usr/lib/include, which CMake rejects: the include path is repaired here.
find_package(Kokkos 3.4 REQUIRED)
if(TARGET Kokkos::kokkos AND Kokkos_INCLUDE_DIRS)
  get_target_property(_kelp_kokkos_includes Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  set(_kelp_kokkos_valid_includes)
  foreach(dir ${_kelp_kokkos_includes} ${Kokkos_INCLUDE_DIRS})
    get_filename_component(dir "${dir}" REALPATH)
    if(EXISTS "${dir}")
      list(APPEND _kelp_kokkos_valid_includes "${dir}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _kelp_kokkos_valid_includes)
  set_target_properties(Kokkos::kokkos PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_kelp_kokkos_valid_includes}")
endif()
