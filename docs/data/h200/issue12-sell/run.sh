#!/usr/bin/env bash
# Issue 12, 2026-11-29 (third session), second call (scratch.patch applied): the grouped team
# kernels reading H in SELL-C-1 order, C = rows per warp (KELP_KPM_SELL=1), against CRS (0).
# KPM tests for both, three rounds of R = 32 per order, R = 8 ... 64 once per order, then Nsight
# Compute on one R = 32 product (locality order) for both.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/s1; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
nvidia-smi > $D/gpu.txt 2>&1
KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
grep -A2 "Compiling entry function.*KpmBlockedTeamSpmmv" $OUT/build.log > $D/ptxas_kpm_team.txt 2>/dev/null
for v in 0 1; do
  KELP_KPM_SELL=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_sell$v.txt 2>&1
  echo "tests sell=$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_sell$v.txt | head -3
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5"
for r in 1 2 3; do for v in 0 1; do for o in locality natural; do
  [ $(el) -gt ${LIMIT:-400} ] && break 3
  KELP_KPM_SELL=$v timeout 40 $B $A --min-block 32 --max-block 32 --row-order $o > $D/${o:0:3}_sell${v}_$r.jsonl 2>&1
  echo "$o sell=$v $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_sell${v}_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done; done
for v in 0 1; do for o in locality natural; do
  [ $(el) -gt 470 ] && break 2
  KELP_KPM_SELL=$v timeout 40 $B $A --min-block 8 --max-block 64 --row-order $o > $D/${o:0:3}_sell${v}_all.jsonl 2>&1
  echo "$o sell=$v all rc $? at $(el) s"
done; done
for v in 0 1; do
  [ $(el) -gt 520 ] && break
  KELP_KPM_SELL=$v timeout 60 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order locality > $D/ncu_loc_R32_sell$v.txt 2>&1
  echo "ncu sell=$v rc $? at $(el) s"
done
rm -f $OUT/build.log.gz; gzip -c $OUT/build.log > $D/build.log.gz 2>/dev/null; rm -f $OUT/build.log $OUT/configure.log
tar czf $OUT/s1.tgz -C /tmp s1
echo "total $(el) s"
