#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install what is missing, build (Release, OpenMP
# Kokkos: all cores), and solve the 3D Poisson problem (100^3 unknowns, 7-point Laplacian) with
# Jacobi-preconditioned CG to a relative residual of 1e-8, as configured in
# configs/poisson3d_jacobi_cg.yaml. Extra arguments go to `kelp run` (for example
# --set solver.max_iterations=50). OMP_NUM_THREADS picks fewer threads than cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
KELP_BUILD_DIR=${KELP_BUILD_DIR:-build} bash scripts/build.sh > build-main.log 2>&1 ||
  { tail -50 build-main.log; echo "kelp: build failed (full log: build-main.log)" >&2; exit 1; }
# Threads pinned one per core, spread over the machine: what Kokkos' OpenMP backend asks for.
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
exec "${KELP_BUILD_DIR:-build}/apps/kelp/kelp" run configs/poisson3d_jacobi_cg.yaml "$@"
