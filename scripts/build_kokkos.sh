#!/usr/bin/env bash
# Builds and installs Kokkos 3.4.1 with the OpenMP (and Serial) backends from Debian's trilinos
# source package, patched like the CUDA build (patches/kokkos-3.4.1-cuda13.patch), and prints
# the install prefix on its last line: pass it to CMake as -DKokkos_ROOT=<prefix>.
#
#   scripts/build_kokkos.sh            build once, then reuse the cached install
#
# Debian's own Kokkos package is Serial-only (one core); this one uses all cores. The install is
# cached in ${KELP_CACHE_DIR:-~/.cache/kelp}, keyed by the patch and this script, and shared by
# every Kelp build on the machine (Release, Debug + sanitizers, downstream projects). Static
# libraries, position-independent, so nothing needs an rpath.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache_dir=${KELP_CACHE_DIR:-${HOME:-/tmp}/.cache/kelp}
key=$(cat "$repo/patches/kokkos-3.4.1-cuda13.patch" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)
prefix=$cache_dir/kokkos-3.4.1-openmp-$key

if [ -f "$prefix/.kelp-complete" ]; then
  echo "build_kokkos: cached OpenMP Kokkos in $prefix" >&2
  echo "$prefix"
  exit 0
fi

src=$(bash "$repo/scripts/build_cuda.sh" --kokkos-source | tail -n 1)
[ -f "$src/CMakeLists.txt" ] || { echo "build_kokkos: error: no Kokkos source ($src)" >&2; exit 1; }
work=$cache_dir/.kokkos-openmp-build.$$
trap 'rm -rf "$work"' EXIT
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
start=$SECONDS
{
  cmake -S "$src" -B "$work" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DBUILD_SHARED_LIBS=OFF -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
    -DKokkos_CXX_STANDARD=17 -DKokkos_ENABLE_TESTS=OFF
  cmake --build "$work" --parallel "$(nproc)"
  rm -rf "$prefix"
  cmake --install "$work"
} >"$cache_dir/kokkos-openmp-build.log" 2>&1 ||
  { tail -30 "$cache_dir/kokkos-openmp-build.log" >&2; echo "build_kokkos: error: build failed (log: $cache_dir/kokkos-openmp-build.log)" >&2; exit 1; }
touch "$prefix/.kelp-complete"
echo "build_kokkos: built OpenMP Kokkos in $((SECONDS - start)) s: $prefix" >&2
echo "$prefix"
