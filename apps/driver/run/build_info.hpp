#pragma once
/// What `kelp --version` and `kelp info` print: the build (Kelp version, git revision, Kokkos
/// version and backends) and what this process runs on (host threads, GPU).

#include <string>

namespace kelp::solvers {

/// "kelp 0.2.0 (git 404c293-dirty)": the CMake project version and the git revision of the
/// source tree at build time ("unknown" when it was not built from a git checkout).
std::string version_line();

/// version_line() followed by one "key: value" line each for the git revision, the Kokkos
/// version, the backends compiled into Kokkos, the default and the host execution spaces, the
/// number of host threads (Kokkos::DefaultHostExecutionSpace().concurrency()) and the GPU
/// (name, compute capability and memory of the CUDA device Kokkos uses; "none" without CUDA).
/// Requires an initialized Kokkos.
std::string build_info();

}  // namespace kelp::solvers
