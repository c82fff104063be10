#!/bin/bash
# Same-window Kelp vs PETSc, 1 thread, idle machine, interleaved rounds
cd <repository>
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false
P=<peers build folder>
for round in 1 2; do
  echo "== round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  build/apps/bench/kelp-bench-krylov --problem convdiff3d --n 64 --restart 30 --iterations 60 --repeats 3 --tolerance 1e-1 --solvers gmres,gmres_cgs,gmres_mgs,bicgstab
  for o in refine_never refine_always; do mpirun -np 1 $P/petsc_bench -mat $P/convdiff3d_64.csr -test solve -ksp gmres -pc jacobi -reps 3 -ksp_max_it 60 -ksp_gmres_cgs_refinement_type $o; done
  mpirun -np 1 $P/petsc_bench -mat $P/convdiff3d_64.csr -test solve -ksp bicgstab -pc jacobi -reps 3
done
echo "== end $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
