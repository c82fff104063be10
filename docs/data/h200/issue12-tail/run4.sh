#!/usr/bin/env bash
# Fourth call (committed code): which sub-unit of L1/TEX and of L2 is the busy one for the
# committed wide kernel at R = 32 (Nsight Compute's breakdown of the two throughput metrics),
# both row orders, one product.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c29; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -2 $D/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
for o in locality natural; do
  timeout 120 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 \
    --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum,sm__cycles_elapsed.avg \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order $o > $D/ncu_breakdown_${o:0:3}_R32.txt 2>&1
  echo "ncu $o rc $? at $(el) s"
done
tar czf $OUT/c29.tgz -C /tmp c29
echo "total $(el) s"
