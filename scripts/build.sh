#!/usr/bin/env bash
# Configures and builds Kelp (Release) into ${KELP_BUILD_DIR:-build}. Extra arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${KELP_BUILD_DIR:-build}
jobs=${KELP_JOBS:-$(nproc)}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build_dir" -j "$jobs"
