#!/usr/bin/env bash
# Issue 12 scratch (patch beside this script): the wide team kernel with a row's column indices
# one per lane (warp shuffles) and the next rows' offsets and indices loaded ahead.
# KELP_X_WIDE: 0 = committed wide kernel; 2 = lane indices, offsets one row ahead; 3 = offsets two
# rows ahead, indices one row ahead (G4, 48 registers); 4 = 3 with the row's V and W loaded before
# the gathers; 5 = 3 with 2 gathers in flight; 7, 8 = 3, 4 with 64 registers (4 teams per SM).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c25; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
for v in 0 3 4 7; do
KELP_X_WIDE=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1; echo "tests v$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_v$v.txt | head -3
done
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
for r in 1 2; do for v in 0 3 7 4 8 2 5; do for o in locality natural; do
  [ $r = 2 ] && [ $o = natural ] && continue
  [ $(el) -gt 560 ] && break 3
  KELP_X_WIDE=$v timeout 40 build-gpu/apps/bench/kelp-bench-kpm $A --row-order $o > $D/${o:0:3}_v$v\_$r.jsonl 2>&1; echo "$o v$v $r rc $? at $(el) s"
done; done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c25.tgz -C /tmp c25
echo "total $(el) s"
