#!/bin/bash
# 2-rank SpMV on the 7-point 100^3 Laplacian: Kelp (kelp-bench-dist) and PETSc MatMult
# (petsc_bench -test spmv), interleaved rounds, one thread per rank, same window.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMP_PROC_BIND=false
K=${KELP_DIST_BENCH:-build/apps/bench/kelp-bench-dist}
P=${PETSC_BENCH:-petsc_bench}
M=${MATRIX_CSR:-p100.csr}
for round in 1 2 3; do
  echo "== round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  for np in 2 1; do
    mpirun -np $np --bind-to core $K --n 100 --repeats 50 --cg-iterations 20 2>&1 | grep '"kind":"\(spmv\|triad\)"'
    mpirun -np $np --bind-to core $P -mat $M -test spmv -reps 50 2>&1 | grep RESULT
  done
done
