#!/usr/bin/env bash
# Issue 11 on the lent machine's 16-core host (quiet, not shared): Kelp's kelp-bench-krylov (built on
# the 2-core host, generic x86-64 -O3, like Debian's PETSc) against PETSc 3.18's peer harness with
# its Debian libraries carried, in interleaved rounds: 1 thread / 1 rank, then 16 threads / 16 ranks.
# Everything is written to $OUT/issue11-cpu16.tar.gz (one file).
set -u
t0=$(date +%s)
W=/tmp/w11; mkdir -p /tmp/pp /tmp/ompiroot /tmp/mats $W
tar -xJf .petsc/petsc_carry.tar.xz -C /tmp/pp
for f in .gpu/debs-mpi/*.deb; do dpkg-deb -x "$f" /tmp/ompiroot; done
source .petsc/env.sh
export PMIX_MCA_pcompress_base_silence_warning=1
K=$PWD/.petsc/kelp-bench-krylov P=/tmp/pp/petsc_bench
cp .petsc/cpu16.sh $W/
lscpu > $W/lscpu.txt; nproc >> $W/lscpu.txt
/tmp/pp/mtxtool gen convdiff3d 64 /tmp/mats/convdiff3d_64.mtx 100 > $W/mats.txt
/tmp/pp/mtxtool gen poisson3d 100 /tmp/mats/poisson3d_100.mtx >> $W/mats.txt
CD=/tmp/mats/convdiff3d_64.csr LP=/tmp/mats/poisson3d_100.csr
echo "setup $(( $(date +%s) - t0 )) s"
petsc() {  # np file args...
  local np=$1 f=$2; shift 2
  if [ "$np" = 1 ]; then $P "$@" 2>>$W/petsc_stderr.txt | grep RESULT >> $f
  else /tmp/ompiroot/usr/bin/mpirun.openmpi --bind-to core -np $np -x LD_LIBRARY_PATH -x OMPI_MCA_mca_base_component_path \
      -x PMIX_MCA_mca_base_component_path -x PMIX_MCA_pcompress_base_silence_warning -x OPAL_PREFIX $P "$@" 2>>$W/petsc_stderr.txt | grep RESULT >> $f; fi
}
window() {  # threads rounds dir
  local t=$1 rounds=$2 out=$W/$3; mkdir -p $out
  for r in $(seq 1 $rounds); do
    OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores $K --solvers bicgstab,gmres_cgs,gmres --repeats 5 --tolerance 0.1 > $out/kelp_$r.jsonl
    OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores $K --problem laplace3d --n 100 --solvers cg --repeats 5 --tolerance 0.1 > $out/kelp_cg_$r.jsonl
    for k in 1 2 3; do
      petsc $t $out/petsc_bcgs_$r.txt -mat $CD -test solve -ksp bicgstab -pc jacobi -reps 5 -ksp_max_it 60
      petsc $t $out/petsc_cgs_$r.txt -mat $CD -test solve -ksp gmres -pc jacobi -reps 5 -ksp_max_it 60
      petsc $t $out/petsc_cgs2_$r.txt -mat $CD -test solve -ksp gmres -pc jacobi -reps 5 -ksp_max_it 60 -ksp_gmres_cgs_refinement_type refine_always
    done
    petsc $t $out/petsc_cg_$r.txt -mat $LP -test solve -ksp cg -pc jacobi -reps 5 -ksp_max_it 60
    echo "$3 round $r: $(( $(date +%s) - t0 )) s"
    tar -czf $OUT/issue11-cpu16.tar.gz -C $W .
  done
}
window 1 ${ROUNDS1:-3} t1
window 16 ${ROUNDS16:-2} t16
echo "done $(( $(date +%s) - t0 )) s"
