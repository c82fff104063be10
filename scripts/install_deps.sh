#!/usr/bin/env bash
# Installs Kelp's build and test dependencies from Debian packages.
# Idempotent: packages already present are not reinstalled, and `apt-get update`
# runs at most once (only when something is missing).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libtrilinos-kokkos-dev          # Kokkos 3.4.1 (Serial backend)
  libtrilinos-kokkos-kernels-dev  # peer for the SpMV benchmark only
  libopenmpi-dev openmpi-bin
  libsuperlu-dev libmetis-dev libeigen3-dev
  libyaml-cpp-dev libgtest-dev zlib1g-dev
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
