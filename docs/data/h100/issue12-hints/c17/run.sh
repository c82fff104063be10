#!/usr/bin/env bash
# Issue 12 scratch: wide team-kernel variants (L2 prefetch of the next row, evict-first W/H) by
# KELP_KPM_WIDE, natural and locality order, interleaved rounds until the time guard.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c17; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
timeout 100 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v0.txt 2>&1; echo "tests v0 rc $? at $(el) s"; tail -2 $D/kpm_tests_v0.txt
KELP_KPM_WIDE=7 timeout 100 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v7.txt 2>&1; echo "tests v7 rc $? at $(el) s"; tail -2 $D/kpm_tests_v7.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 8 --max-block 64 --triad-repeats 5 --flop-repeats 2"
for r in 1 2; do for v in 0 1 2 3 4 5 6 7; do for o in natural locality; do
  [ $(el) -gt 560 ] && break 3
  KELP_KPM_WIDE=$v timeout 40 $B $A --row-order $o > $D/${o:0:3}_v${v}_$r.jsonl 2>&1; echo "$o v$v $r rc $? at $(el) s"
done; done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c17.tgz -C /tmp c17
echo "total $(el) s"
