#!/usr/bin/env bash
# Issue 12 scratch: passes per team chunk (KELP_KPM_PASSES) x evict-first W (KELP_KPM_WIDE=3),
# natural and locality order, interleaved rounds; then Nsight Compute sections at R = 32.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c18; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
for p in 1 4; do
KELP_KPM_PASSES=$p timeout 100 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_p$p.txt 2>&1; echo "tests p$p rc $? at $(el) s"; tail -2 $D/kpm_tests_p$p.txt
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 8 --max-block 64 --triad-repeats 5 --flop-repeats 2"
for r in 1 2 3; do for p in 1 2 4 8; do for v in 0 3; do for o in natural locality; do
  [ $(el) -gt 470 ] && break 4
  KELP_KPM_PASSES=$p KELP_KPM_WIDE=$v timeout 40 $B $A --row-order $o > $D/${o:0:3}_p${p}v${v}_$r.jsonl 2>&1; echo "$o p$p v$v $r rc $? at $(el) s"
done; done; done; done
for p in 1 4; do
KELP_KPM_PASSES=$p timeout 50 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy --section LaunchStats \
  $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order locality > $D/ncu_loc_R32_p$p.txt 2>&1; echo "ncu p$p rc $? at $(el) s"
done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c18.tgz -C /tmp c18
echo "total $(el) s"
