#!/usr/bin/env bash
# Fifth call (scratch3.patch): two vectors per lane (R = 32 on 16 lanes per row, a lane does
# vectors c and c + 16 in one pass), so that each broadcast index and value load serves two
# gathers. 0 = committed wide kernel; 1 = pairs, 2 gathers, 5 teams per SM; 2 = pairs, 4
# gathers, 5 teams; 3 = pairs, 4 gathers, 4 teams; 4 = pairs, 2 gathers, 4 teams; 5 = pairs, 3
# gathers, 5 teams. Rebuilds, runs the KPM tests per variant, two rounds of R = 32 per order,
# and Nsight Compute on variant 1 (locality).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c30; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
grep -A2 "Compiling entry function.*KpmBlockedTeamSpmmv" build-gpu/build.log $OUT/build.log 2>/dev/null > $D/ptxas_kpm_team.txt
for v in 0 1 2 3 4 5; do
  KELP_KPM_WIDE_VARIANT=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1
  echo "tests v$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_v$v.txt | head -3
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
for r in 1 2; do for v in 0 1 2 3 4 5; do for o in locality natural; do
  [ $(el) -gt 500 ] && break 3
  KELP_KPM_WIDE_VARIANT=$v timeout 40 $B $A --row-order $o > $D/${o:0:3}_v${v}_$r.jsonl 2>&1
  echo "$o v$v $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_v${v}_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done; done
KELP_KPM_WIDE_VARIANT=1 timeout 60 ncu --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats \
  $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order locality > $D/ncu_loc_R32_v1.txt 2>&1
echo "ncu rc $? at $(el) s"
tar czf $OUT/c30.tgz -C /tmp c30
echo "total $(el) s"
