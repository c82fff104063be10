#!/usr/bin/env bash
# Issue 12 on the H100: the team kernel with LaunchBounds<256, 1> and the row's own entries loaded
# before the gathers. kelp-bench-kpm (moments checked against naive at every R), Nsight Compute
# at R = 32 and R = 1, then the KPM tests on the GPU.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
bash scripts/gpu_build.sh kelp-bench-kpm > $OUT/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"; tail -2 $OUT/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
timeout 80 $B --n 100 --nz 25 --moments 100 --repeats 3 --max-block 64 > $OUT/kpm.jsonl 2>&1; echo "kpm rc $?"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
for R in 32 1; do
  timeout 60 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 $S \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block $R --max-block $R --triad-repeats 1 --flop-repeats 1 > $OUT/ncu_kelp_R$R.txt 2>&1; echo "ncu R$R rc $?"
done
python3 -c "
import json
for l in open('$OUT/kpm.jsonl'):
  d=json.loads(l)
  if d.get('kind')=='measurement': print(d['implementation'],d['R'],'%.3g'%d['seconds_per_vector_moment'],'%.0f GB/s'%d['gbs'],'roof %.3f'%d['fraction_of_roof'],'x naive %.2f'%d['speedup_over_naive'])
  elif d.get('kind') in ('triad','error'): print(d)
"
grep -hE "Duration|DRAM Throughput|L2 Hit|Registers Per|Achieved Occ" $OUT/ncu_kelp_R*.txt
echo "bench done $(( $(date +%s) - t1 )) s"
(timeout 200 bash scripts/gpu_build.sh kelp_test_solvers > $OUT/build_tests.txt 2>&1; echo "test build rc $? at $(( $(date +%s) - t1 )) s")
(cd build-gpu/test && timeout 60 ./kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $OUT/kpm_tests.txt 2>&1; echo "kpm tests rc $?"; tail -3 $OUT/kpm_tests.txt)
echo "total $(( $(date +%s) - t1 )) s"
