#!/usr/bin/env bash
# Configures and builds Kelp into ${KELP_BUILD_DIR:-build} (Release unless the arguments say
# otherwise), against the OpenMP Kokkos of scripts/build_kokkos.sh (built once, cached).
# KELP_SYSTEM_KOKKOS=1 builds against Debian's Serial Kokkos instead (one thread; the build in
# which the Kokkos Kernels peer can join the benchmarks). Extra arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache keys on paths relative to the checkout, so clones in other folders share the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
build_dir=${KELP_BUILD_DIR:-build}
jobs=${KELP_JOBS:-$(nproc)}
kokkos=()
if [ "${KELP_SYSTEM_KOKKOS:-0}" = 1 ]; then
  kokkos=(-DKELP_SYSTEM_KOKKOS=ON)
else
  kokkos=(-DKELP_SYSTEM_KOKKOS=OFF -DKokkos_ROOT="$(bash scripts/build_kokkos.sh)")
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
generator=()
if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${kokkos[@]}" "${launcher[@]}" "$@"
# KELP_BUILD_TARGETS (space-separated) builds only those targets (CI's sanitizer and Serial phases).
targets=()
for t in ${KELP_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
