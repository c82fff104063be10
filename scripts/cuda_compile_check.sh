#!/usr/bin/env bash
# CI check that everything (library, apps, tests) compiles for NVIDIA GPUs (CUDA + OpenMP Kokkos
# backends, sm_90) with nvcc. Needs no GPU and runs nothing. See scripts/build_cuda.sh.
#
#   scripts/cuda_compile_check.sh [BUILD_DIR]      (default build-cuda-ci)
#
# Host code is compiled at -O0 and PTX is assembled at ptxas -O0 (KELP_CUDA_CHECK_FLAGS, default
# "-O0 -DNDEBUG -Xptxas=-O0"): nvcc's front end, cicc and ptxas still see every kernel, the host
# compile, most of the time at -O3, drops to about a quarter, and ptxas to 40 % (7.5 s -> 2.9 s of
# CPU for kernels/spmv/eti/spmv_double.cpp, 2026-11-26). cicc stays at its default: at -O0 it
# emits 4x the PTX and ptxas loses more than cicc gains. The test programs' own -O1
# (KELP_TEST_OPT_FLAGS, test/CMakeLists.txt) is turned off here too: it came after -O0 and won,
# and their host compile was most of this check (one unity batch of kernel tests: 82 s of host
# g++ in 122 s at -O1, 52 s in 89 s at -O0; 2026-11-28). The executables are for no run; GPU
# runs use scripts/build_cuda.sh.
#
# Unity batches (KELP_UNITY_BUILD, KELP_CUDA_CHECK_UNITY=OFF to turn off): nvcc parses Kokkos'
# and Kelp's headers once per batch of 8 sources instead of once per source.
#
# Host compiler: clang++ when it can build OpenMP code (Debian's libomp-14-dev, which
# install_deps.sh installs), else g++; KELP_CUDA_CHECK_HOST_CXX chooses. nvcc hands the host half of
# every unit to it, and clang took 0.68-0.78 of g++'s time on the largest units of this check
# (2026-11-28, docs/conventions.md §13). GPU runs (scripts/build_cuda.sh, gpu_build.sh) keep g++:
# the check is about what nvcc accepts, and the Release phase has compiled all host code with GCC.
#
# Caching: the patched Kokkos source is kept in ${KELP_CACHE_DIR:-~/.cache/kelp} (about 12 MiB;
# the 160 MiB trilinos tarball is not kept), so later runs skip the download. The build dir is
# reused when it exists (incremental build).
# Without nvcc the check is skipped (exit 0); KELP_REQUIRE_CUDA=1 turns that into a failure.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-build-cuda-ci}

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "${CUDA_ROOT:-/usr/local/cuda}/bin/nvcc" ]; then
  if [ "${KELP_REQUIRE_CUDA:-0}" = 1 ]; then
    echo "cuda_compile_check: error: no nvcc (KELP_REQUIRE_CUDA=1)" >&2
    exit 1
  fi
  echo "cuda_compile_check: skipped: no nvcc on PATH or in ${CUDA_ROOT:-/usr/local/cuda}/bin"
  exit 0
fi

# clang++ as nvcc's host compiler, if it compiles and links an OpenMP program here.
choose_host_compiler() {
  if [ -n "${KELP_CUDA_CHECK_HOST_CXX:-}" ]; then
    echo "$KELP_CUDA_CHECK_HOST_CXX"
    return
  fi
  local probe
  probe=$(mktemp -d)
  printf '#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n' > "$probe/omp.cpp"
  if command -v clang++ >/dev/null 2>&1 &&
     clang++ -fopenmp "$probe/omp.cpp" -o "$probe/omp" >/dev/null 2>&1; then
    echo clang++
  else
    echo g++
  fi
  rm -rf "$probe"
}
export NVCC_WRAPPER_DEFAULT_COMPILER
NVCC_WRAPPER_DEFAULT_COMPILER=$(choose_host_compiler)

start=$(date +%s)
rc=0
bash "$repo/scripts/build_cuda.sh" --compile-only -j "${KELP_CUDA_CHECK_JOBS:-$(nproc)}" \
  "$build_dir" -- -DCMAKE_CXX_FLAGS_RELEASE="${KELP_CUDA_CHECK_FLAGS:--O0 -DNDEBUG -Xptxas=-O0}" \
  -DKELP_UNITY_BUILD="${KELP_CUDA_CHECK_UNITY:-ON}" -DKELP_TEST_OPT_FLAGS= || rc=$?
# The CUDA build installs and exports too: install it and build the downstream project with the
# installed nvcc_wrapper (compile only, like everything here).
if [ $rc -eq 0 ]; then
  case "$build_dir" in /*) abs_build=$build_dir ;; *) abs_build=$repo/$build_dir ;; esac
  rm -rf "$abs_build/install" "$abs_build/downstream"
  { cmake --install "$abs_build" --prefix "$abs_build/install" > /dev/null &&
    cmake -S "$repo/test/downstream" -B "$abs_build/downstream" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER="$abs_build/install/bin/nvcc_wrapper" \
      -DCMAKE_CXX_FLAGS_RELEASE="${KELP_CUDA_CHECK_FLAGS:--O0 -DNDEBUG -Xptxas=-O0}" \
      -DCMAKE_PREFIX_PATH="$abs_build/install" > /dev/null &&
    cmake --build "$abs_build/downstream" -j "${KELP_CUDA_CHECK_JOBS:-$(nproc)}"; } || rc=$?
  echo "cuda_compile_check: install + downstream build $([ $rc -eq 0 ] && echo passed || echo FAILED)"
fi
echo "cuda_compile_check: $([ $rc -eq 0 ] && echo passed || echo FAILED) in $(($(date +%s) - start)) s"
exit $rc
