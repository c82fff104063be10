#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: install what is missing, build (Release),
# compile Kelp and its tests for CUDA (compile only; no GPU needed), build a downstream project
# against the installed Kelp package, then run every test with CTest.
# KELP_SKIP_CUDA_CHECK=1 skips the CUDA compile (for quick local runs; CI never sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${KELP_BUILD_DIR:-build}
start=$SECONDS
phase() { echo "== kelp: $1 (t = $((SECONDS - start)) s)"; }

phase "installing dependencies"
bash scripts/install_deps.sh

phase "building (Release)"
KELP_BUILD_DIR=$build_dir bash scripts/build.sh

if [ "${KELP_SKIP_CUDA_CHECK:-0}" != 1 ]; then
  phase "CUDA compile check"
  bash scripts/cuda_compile_check.sh
fi

phase "find_package(Kelp) from a downstream project"
rm -rf "$build_dir/install" "$build_dir/downstream"
cmake --install "$build_dir" --prefix "$build_dir/install" > /dev/null
cmake -S test/downstream -B "$build_dir/downstream" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PWD/$build_dir/install" > /dev/null
cmake --build "$build_dir/downstream" -j "$(nproc)"
"$build_dir/downstream/downstream_poisson"

phase "running the tests"
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)"
echo "== kelp: all done in $((SECONDS - start)) s"
