#!/usr/bin/env bash
# Prepares .gpu/ (git-ignored) for a GPU machine that has nvcc but neither Debian's -dev packages
# nor a network: the patched Kokkos 3.4.1 source (scripts/build_cuda.sh --kokkos-source) and the
# .deb files of the headers and libraries the apps and tests build against. scripts/gpu_build.sh
# then builds there. Carry .gpu/ with the working tree (about 16 MiB).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$repo/.gpu
mkdir -p "$dest/debs" "$repo/.git/info"
grep -qx '/.gpu/' "$repo/.git/info/exclude" 2>/dev/null || echo '/.gpu/' >> "$repo/.git/info/exclude"
src=$(bash "$repo/scripts/build_cuda.sh" --kokkos-source | tail -n 1)
rm -rf "$dest/$(basename "$src")"
cp -r "$src" "$dest/"
(cd "$dest/debs" && apt-get download -o APT::Sandbox::User=root libyaml-cpp-dev libyaml-cpp0.7 \
   libcli11-dev nlohmann-json3-dev libeigen3-dev libgtest-dev googletest zlib1g-dev \
   libmetis-dev libmetis5 >/dev/null)
# Open MPI (about 7 MiB), unpacked by gpu_build.sh only with KELP_GPU_MPI=ON.
mkdir -p "$dest/debs-mpi"
(cd "$dest/debs-mpi" && apt-get download -o APT::Sandbox::User=root libopenmpi3 libopenmpi-dev \
   openmpi-bin openmpi-common libhwloc15 libhwloc-plugins libevent-2.1-7 libevent-core-2.1-7 \
   libevent-pthreads-2.1-7 libpmix2 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 \
   libnl-route-3-200 libpsm-infinipath1 libpsm2-2 libnuma1 libmunge2 libltdl7 libpciaccess0 \
   libxnvctrl0 >/dev/null)
echo "gpu_carry: $(du -sh "$dest" | cut -f1) in $dest"
