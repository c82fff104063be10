#!/usr/bin/env bash
# Second call of the same session (the build of run.sh kept): round 2 for variants 0, 1 and 3,
# and Nsight Compute on the committed wide kernel (variant 0), R = 32, both row orders.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c27; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
for v in 0 1 3; do for o in locality natural; do
  KELP_KPM_WIDE_VARIANT=$v timeout 40 $B $A --row-order $o > $D/${o:0:3}_v${v}_2.jsonl 2>&1
  echo "$o v$v 2 rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_v${v}_2.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done
for o in locality natural; do
  timeout 90 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy --section LaunchStats \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order $o > $D/ncu_${o:0:3}_R32_v0.txt 2>&1
  echo "ncu $o rc $? at $(el) s"
done
tar czf $OUT/c27.tgz -C /tmp c27
echo "total $(el) s"
