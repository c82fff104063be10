# Warnings and sanitizers for Kelp's own targets. Third-party headers (Kokkos, GoogleTest, Eigen,
# yaml-cpp) come in through imported targets or SYSTEM include directories, so their warnings
# stay out of the way.

# kelp_target_warnings(<target>): -Wall -Wextra -Wshadow (and -Werror with
# KELP_WARNINGS_AS_ERRORS) on <target>'s own sources. nvcc_wrapper forwards them to the host
# compiler through -Xcompiler.
function(kelp_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    set(flags -Wall -Wextra -Wshadow)
    if(KELP_IN_TREE_KOKKOS)
      # nvcc's generated host stubs trip -Wshadow/-Wextra in ways the source cannot fix.
      set(flags -Wall)
    endif()
    if(KELP_WARNINGS_AS_ERRORS)
      list(APPEND flags -Werror)
    endif()
    target_compile_options(${target} PRIVATE ${flags})
  endif()
endfunction()

if(KELP_SANITIZE)
  # Instrument everything Kelp compiles (library, apps, tests); Kokkos itself stays as built.
  add_compile_options(-fsanitize=${KELP_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${KELP_SANITIZE})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12's -Wmaybe-uninitialized misfires on libstdc++ (std::regex, std::function) under the
    # sanitizers' instrumentation; the Release build keeps the warning.
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
endif()
