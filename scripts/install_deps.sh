#!/usr/bin/env bash
# Installs Kelp's build and test dependencies from Debian packages.
# Idempotent: packages already present are not reinstalled, and `apt-get update`
# runs at most once (only when something is missing).
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build ccache git patch xz-utils
  clang libclang-rt-14-dev        # the sanitizer build of scripts/test.sh (and its runtimes)
  libomp-14-dev                   # clang's OpenMP: nvcc's host compiler in the CUDA compile check
  libtrilinos-kokkos-dev          # Kokkos 3.4.1, Serial backend (KELP_SYSTEM_KOKKOS builds)
  libtrilinos-kokkos-kernels-dev  # peer for the benchmarks only (KELP_ENABLE_PEERS)
  nlohmann-json3-dev libcli11-dev # JSON reports and the command line of the apps
  libopenmpi-dev openmpi-bin
  libsuperlu-dev libmetis-dev libeigen3-dev
  libyaml-cpp-dev libgtest-dev zlib1g-dev
  python3 python3-matplotlib      # apps/plot/kelp_plot.py: convergence plots of the reports
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "kelp: all dependencies present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "kelp: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
