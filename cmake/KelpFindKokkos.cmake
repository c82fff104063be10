# Finds the installed Kokkos (Debian's libtrilinos-kokkos-dev, 3.4.1) and repairs its imported
# target: Debian's KokkosConfig.cmake points Kokkos::kokkos at the non-existent /usr/lib/include,
# which CMake rejects. Used by Kelp's own build and by KelpConfig.cmake for consumers.
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
