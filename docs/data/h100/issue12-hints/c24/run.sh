#!/usr/bin/env bash
# Issue 12 scratch: bigger teams for the wide kernel (KELP_KPM_TEAM: 0 = 256 threads x 5 per SM,
# committed; 1 = 640 x 2; 2 = 384 x 3; 3 = 768 x 2), natural and locality, 2 interleaved rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c24; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
for v in 1 2 3; do
KELP_KPM_TEAM=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1; echo "tests v$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_v$v.txt | head -3
done
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 8 --max-block 32"
for r in 1 2; do for v in 0 1 2 3; do for o in natural locality; do
  [ $(el) -gt 540 ] && break 3
  KELP_KPM_TEAM=$v timeout 40 build-gpu/apps/bench/kelp-bench-kpm $A --row-order $o > $D/${o:0:3}_t$v\_$r.jsonl 2>&1; echo "$o t$v $r rc $? at $(el) s"
done; done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c24.tgz -C /tmp c24
echo "total $(el) s"
