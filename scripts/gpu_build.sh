#!/usr/bin/env bash
# On a GPU machine without Debian's -dev packages (the lent H100), from the repository root with
# .gpu/ carried (scripts/gpu_carry.sh): unpacks the carried .deb files into /, then configures
# Kelp with Kokkos 3.4.1 (CUDA + OpenMP, sm_90) built in place, Release (-O3 host code, unlike the
# -O0 CUDA compile check), into build-gpu/, and builds the given targets (default: all).
# KELP_GPU_MPI=ON builds distributed/ too (needs mpicxx there). KELP_GPU_BUILD_DIR picks another
# build folder; KELP_UNITY_BUILD=ON and KELP_GPU_RELEASE_FLAGS (e.g. the CUDA compile check's
# "-O0 -DNDEBUG -Xptxas=-O0") reproduce the check of scripts/cuda_compile_check.sh on 16 cores.
#   bash scripts/gpu_build.sh [TARGET...]
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NVCC_WRAPPER_DEFAULT_COMPILER=g++
build_dir=${KELP_GPU_BUILD_DIR:-build-gpu}
log=${OUT:-$build_dir}
mkdir -p "$log"
# tar --keep-directory-symlink: a package with ./lib/ (libnl) must not replace the image's
# /lib -> usr/lib link with a directory (that hides libc from the linker).
unpack() { dpkg-deb --fsys-tarfile "$1" | tar -x --keep-directory-symlink -C /; }
for f in .gpu/debs/*.deb; do unpack "$f"; done
if [ "${KELP_GPU_MPI:-OFF}" = ON ] && ! command -v mpicxx >/dev/null 2>&1; then
  # The device image has its own Open MPI (with mpicxx): use it. Only where it has none, unpack
  # Debian's (.gpu/debs-mpi); dpkg-deb runs no maintainer scripts, so make the links that
  # update-alternatives would have made. Never both: two libpmix versions crash mpirun.
  for f in .gpu/debs-mpi/*.deb; do unpack "$f"; done
  for tool in mpicxx mpicc mpirun mpiexec; do ln -sf "$tool.openmpi" "/usr/bin/$tool"; done
  ln -sfn /usr/lib/x86_64-linux-gnu/openmpi/include /usr/include/x86_64-linux-gnu/mpi
fi
ldconfig
kokkos=$(ls -d "$PWD"/.gpu/kokkos-3.4.1-* | head -n 1)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" -DKELP_KOKKOS_SOURCE_DIR="$kokkos" \
  -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON \
  -DKokkos_ARCH_HOPPER90=ON -DKokkos_CXX_STANDARD=17 -DKELP_ENABLE_PEERS=OFF \
  -DKELP_ENABLE_MPI="${KELP_GPU_MPI:-OFF}" -DKELP_ENABLE_APPS=ON -DKELP_ENABLE_TESTS=ON \
  -DKELP_UNITY_BUILD="${KELP_UNITY_BUILD:-OFF}" \
  ${KELP_GPU_RELEASE_FLAGS:+-DCMAKE_CXX_FLAGS_RELEASE="$KELP_GPU_RELEASE_FLAGS"} \
  > "$log/configure.log" 2>&1 || { tail -30 "$log/configure.log"; exit 1; }
cmake --build "$build_dir" -j "$(nproc)" --target "${@:-all}" -- -k 0 > "$log/build.log" 2>&1
rc=$?
grep -E 'error|FAILED' "$log/build.log" | head -30
echo "gpu_build: build exit $rc"
exit $rc
