#!/usr/bin/env bash
# Issue 12 diagnosis on the H100: Kelp's team kernel against the plain CUDA microbenchmark
# (.gpu/mb/kpm_mb.cu, same matrix shape) under Nsight Compute, R = 32 and R = 1.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
bash scripts/gpu_build.sh kelp-bench-kpm > $OUT/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"; tail -3 $OUT/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
timeout 80 $B --n 100 --nz 25 --moments 100 --repeats 3 --max-block 32 > $OUT/kpm.jsonl 2>&1; echo "kpm rc $?"
(cd .gpu/mb && nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -o /tmp/kpm_mb kpm_mb.cu) || echo "mb build failed"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis"
for R in 32 1; do
  timeout 90 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 $S \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block $R --max-block $R --triad-repeats 1 --flop-repeats 1 > $OUT/ncu_kelp_R$R.txt 2>&1; echo "ncu kelp R$R rc $?"
  MB_R=$R timeout 60 ncu --kernel-name-base demangled --kernel-name "regex:step<$R, 1, false, false, false>" --launch-skip 3 --launch-count 1 $S /tmp/kpm_mb > $OUT/ncu_mb_R$R.txt 2>&1; echo "ncu mb R$R rc $?"
done
grep -h '"measurement"' $OUT/kpm.jsonl | cut -c1-160
echo "total $(( $(date +%s) - t1 )) s"
