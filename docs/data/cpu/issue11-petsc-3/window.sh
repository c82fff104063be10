#!/bin/bash
# One measurement window of docs/performance.md "Issue 11: ... reductions in blocks of rows".
# usage: window.sh OUT ROUNDS; BEFORE and AFTER are two kelp-bench-krylov binaries, PETSC the
# peer harness (../shared/peers/src/petsc_bench.cpp), CONVDIFF / LAPLACE its .csr matrices
# (mtxtool gen convdiff3d 64 ... / poisson3d 100 ...). Other processes were SIGSTOPped meanwhile.
out=$1; rounds=$2; mkdir -p $out
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
uptime > $out/uptime.txt
for r in $(seq 1 $rounds); do
  for tag in before kelp; do
    if [ $tag = before ]; then B=$BEFORE; else B=$AFTER; fi
    $B --solvers bicgstab,gmres_cgs,gmres --repeats 10 --tolerance 0.1 > $out/${tag}_$r.jsonl
    $B --problem laplace3d --n 100 --solvers cg --repeats 10 --tolerance 0.1 > $out/${tag}_cg_$r.jsonl
  done
  for k in 1 2 3 4 5 6 7 8 9 10; do
    $PETSC -mat $CONVDIFF -test solve -ksp bicgstab -pc jacobi -reps 1 -ksp_max_it 60 | grep RESULT >> $out/petsc_bcgs_$r.txt
    $PETSC -mat $CONVDIFF -test solve -ksp gmres -pc jacobi -reps 1 -ksp_max_it 60 | grep RESULT >> $out/petsc_cgs_$r.txt
    $PETSC -mat $CONVDIFF -test solve -ksp gmres -pc jacobi -reps 1 -ksp_max_it 60 \
      -ksp_gmres_cgs_refinement_type refine_always | grep RESULT >> $out/petsc_cgs2_$r.txt
  done
  for k in 1 2 3 4 5; do
    $PETSC -mat $LAPLACE -test solve -ksp cg -pc jacobi -reps 1 -ksp_max_it 60 | grep RESULT >> $out/petsc_cg_$r.txt
  done
  uptime >> $out/uptime.txt
done
