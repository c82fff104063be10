#!/usr/bin/env bash
# schwarz_overlap_measure.sh KELP [OUT_DIR]: issue 14's additive Schwarz measurement. On 2 ranks
# (one OpenMP thread each), the 7-point 50^3 Laplacian of configs/laplace3d_dist_schwarz_gmres.yaml:
# GMRES(30) with restricted AS (two symmetric Gauss-Seidel sweeps per subdomain) and CG with
# symmetric AS (one sweep), overlap 0, 1 and 2; three solves each (task.repeat), medians printed.
# Run from the repository root; reports go to OUT_DIR (default: a new temporary folder).
set -euo pipefail
kelp=$1
out=${2:-$(mktemp -d)}
config=configs/laplace3d_dist_schwarz_gmres.yaml
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
grid='problem.generator={type: laplace3d, nx: 50, ny: 50, nz: 50}'
for solver in gmres cg; do
  for overlap in 0 1 2; do
    extra=()
    if [ $solver = cg ]; then
      extra=(--set "solver={type: cg, max_iterations: 2000, relative_tolerance: 1.0e-8, absolute_tolerance: 0, preconditioner: {type: additive_schwarz, variant: auto, local: {type: gauss_seidel, direction: symmetric, sweeps: 1}}}")
    fi
    mpirun -n 2 --bind-to core "$kelp" run "$config" --set "$grid" "${extra[@]}" \
      --set solver.preconditioner.overlap=$overlap --set task.repeat=3 \
      --set output.report="$out/${solver}_o$overlap.json" >"$out/${solver}_o$overlap.out" 2>&1
    python3 - "$out/${solver}_o$overlap.json" $solver $overlap <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
solve = statistics.median(x["solve_seconds"] for x in r["repetitions"])
num = statistics.median(x["setup_numeric_seconds"] for x in r["repetitions"])
print(f"{sys.argv[2]:6s} overlap {sys.argv[3]}: iterations {r['iterations']:4d}  solve {solve:7.3f} s  "
      f"per iteration {1e3 * solve / max(r['iterations'], 1):6.2f} ms  setup symbolic {r['setup_symbolic_seconds']:.3f} s  "
      f"numeric {num:.3f} s  true rel. residual {r['true_relative_residual']:.1e}  converged {r['converged']}")
PY
  done
done
