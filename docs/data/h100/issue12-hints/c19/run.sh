#!/usr/bin/env bash
# Issue 12 scratch: wide team kernel with the row's V and W fetched one row ahead by cp.async
# (KELP_KPM_WIDE 1-5) against the committed one (0), natural and locality, interleaved rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c19; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
for v in 0 1 2 3 4 5; do
KELP_KPM_WIDE=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1; echo "tests v$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_v$v.txt | head -5
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 4 --max-block 64 --triad-repeats 5 --flop-repeats 2"
for r in 1 2 3; do for v in 0 1 2 3 4 5; do for o in natural locality; do
  [ $(el) -gt 500 ] && break 3
  KELP_KPM_WIDE=$v timeout 40 $B $A --row-order $o > $D/${o:0:3}_v${v}_$r.jsonl 2>&1; echo "$o v$v $r rc $? at $(el) s"
done; done; done
for v in 1 3; do
KELP_KPM_WIDE=$v timeout 40 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats \
  $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order locality > $D/ncu_loc_R32_v$v.txt 2>&1; echo "ncu v$v rc $? at $(el) s"
  [ $(el) -gt 560 ] && break
done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c19.tgz -C /tmp c19
echo "total $(el) s"
