#!/usr/bin/env bash
# Issue 12, 2026-11-29 (fifth session), third call, halo.patch applied: each block's gathered V
# rows staged in shared memory by cp.async (solvers/kpm/impl/kpm_halo_kernel.hpp of the patch).
# KELP_KPM_HALO: 0 = committed quad kernel; 1 = halo, clusters within 48 KB of shared memory
# (4 blocks of 256 threads per SM); 2 = 72 KB (3 per SM); 3 = 108 KB (2 per SM); 4 = 216 KB
# (1 per SM). KELP_KPM_HALO_ROWS caps the rows of a cluster (default 256). R = 32 only.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/h1; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
nvidia-smi > $D/gpu.txt 2>&1
KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
grep -A3 "Compiling entry function.*\(KpmBlockedTeamSpmmv\|kpm_halo\)" $OUT/build.log > $D/ptxas_kpm.txt 2>/dev/null
grep -A2 "kpm_halo_step" $D/ptxas_kpm.txt | grep -E "registers|spill" | head -8
for v in 0 3 1; do
  KELP_KPM_HALO=$v timeout 90 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_h$v.txt 2>&1
  echo "tests h$v rc $? at $(el) s $(grep -E 'PASSED|FAILED' $D/kpm_tests_h$v.txt | head -3 | tr '\n' ' ')"
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
run() {  # run NAME ORDER [ENV...]
  local name=$1 o=$2; shift 2
  [ $(el) -gt ${LIMIT:-500} ] && return
  env "$@" timeout 60 $B $A --row-order $o > $D/$name.jsonl 2> $D/$name.err
  echo "$name rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/$name.jsonl | grep -o '"fraction_of_roof":[0-9.]*\|"max_relative_moment_difference":[-0-9.e]*' | tr '\n' ' ') $(grep -o 'clusters, .*' $D/$name.err | head -1)"
}
for r in 1 2; do
  for v in 0 1 2 3 4; do run loc_h${v}_$r locality KELP_KPM_HALO=$v; done
done
for v in 0 3 4; do run nat_h${v}_1 natural KELP_KPM_HALO=$v; done
run loc_h3_rows32_1 locality KELP_KPM_HALO=3 KELP_KPM_HALO_ROWS=32
run loc_h4_rows64_1 locality KELP_KPM_HALO=4 KELP_KPM_HALO_ROWS=64
run loc_h2_rows32_1 locality KELP_KPM_HALO=2 KELP_KPM_HALO_ROWS=32
rm -f $OUT/build.log.gz; gzip -c $OUT/build.log > $D/build.log.gz 2>/dev/null; rm -f $OUT/build.log $OUT/configure.log
tar czf $OUT/h1.tgz -C /tmp h1
echo "total $(el) s"
