#!/usr/bin/env bash
# Issue 12, 2026-11-29 (third session), first call (scratch.patch applied): clusters of the
# locality order and consecutive passes per team. KELP_KPM_CLUSTER_ROWS = C cuts every part of
# the locality order into clusters of C rows (kernels::locality_order's cluster_rows);
# KELP_KPM_CHUNK_PASSES = K makes each team take K consecutive passes of its 32 rows before it
# jumps (kpm_interleaved_rows' chunk_passes). KPM tests for K = 1, 2, 4, then three rounds of
# R = 32 for each (order, C, K).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/k1; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
nvidia-smi > $D/gpu.txt 2>&1
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
for k in 1 2 4; do
  KELP_KPM_CHUNK_PASSES=$k timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_k$k.txt 2>&1
  echo "tests K=$k rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_k$k.txt | head -3
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
# name order C K
V="loc_c0_k1 locality 0 1
loc_c32_k1 locality 32 1
loc_c64_k2 locality 64 2
loc_c128_k4 locality 128 4
loc_c64_k1 locality 64 1
loc_c0_k2 locality 0 2
nat_k1 natural 0 1
nat_k2 natural 0 2"
for r in 1 2 3; do
  while read -r name o c k; do
    [ $(el) -gt ${LIMIT:-560} ] && break 2
    KELP_KPM_CLUSTER_ROWS=$c KELP_KPM_CHUNK_PASSES=$k timeout 40 $B $A --row-order $o > $D/${name}_$r.jsonl 2>&1
    echo "$name $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${name}_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
  done <<< "$V"
done
rm -f $OUT/build.log.gz; gzip -c $OUT/build.log > $D/build.log.gz 2>/dev/null; rm -f $OUT/build.log $OUT/configure.log
tar czf $OUT/k1.tgz -C /tmp k1
echo "total $(el) s"
