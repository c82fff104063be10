#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install what is missing, build (Release), and solve
# the 3D Poisson problem (100^3 unknowns, 7-point Laplacian) with Jacobi-preconditioned CG to a
# relative residual of 1e-8, as configured in configs/poisson3d_jacobi_cg.yaml.
# Extra arguments go to `kelp run` (for example --set solver.max_iterations=50).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
KELP_BUILD_DIR=${KELP_BUILD_DIR:-build} bash scripts/build.sh > build-main.log 2>&1 ||
  { tail -50 build-main.log; echo "kelp: build failed (full log: build-main.log)" >&2; exit 1; }
exec "${KELP_BUILD_DIR:-build}/apps/kelp/kelp" run configs/poisson3d_jacobi_cg.yaml "$@"
