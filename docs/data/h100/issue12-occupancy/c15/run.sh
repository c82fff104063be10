#!/usr/bin/env bash
# Issue 12, committed narrow/wide team kernels on an H100: KPM tests, kelp-bench-kpm natural and
# locality (2 rounds), Nsight Compute at R = 32; then scratch rebuilds with the wide kernel's
# launch bound at 6 and 7 teams per SM (not committed).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c15; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
timeout 120 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*:*Dos*' > $D/kpm_tests.txt 2>&1; echo "tests rc $? at $(el) s"; tail -3 $D/kpm_tests.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
for r in 1 2; do for o in natural locality; do
  timeout 45 $B $A --row-order $o > $D/${o:0:3}_new_$r.jsonl 2>&1; echo "$o $r rc $? at $(el) s"
done; done
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
timeout 60 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 --metrics $M \
  $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block 32 --max-block 32 --triad-repeats 1 --flop-repeats 1 --row-order locality > $D/ncu_loc_R32.txt 2>&1; echo "ncu rc $? at $(el) s"
grep -h "duration\|dram__bytes\|hit_rate\|warps_active\|registers\|grid_size" $D/ncu_loc_R32.txt | sed 's/  */ /g'
for mb in 6 7; do
  [ $(el) -gt 420 ] && { echo "no time for bound $mb"; break; }
  sed -i "s/LaunchBounds<kpm_team_threads, [0-9]>/LaunchBounds<kpm_team_threads, $mb>/" solvers/kpm/impl/kpm_team_kernel.hpp
  cmake --build build-gpu --target kelp-bench-kpm -j 16 > $D/build_b$mb.txt 2>&1; echo "build bound $mb rc $? at $(el) s"
  for o in natural locality; do
    [ $(el) -gt 560 ] && break
    timeout 45 $B $A --row-order $o > $D/${o:0:3}_bound${mb}_1.jsonl 2>&1; echo "bound $mb $o rc $? at $(el) s"
  done
done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
python3 docs/data/h100/issue12-l1-waves/summarize.py $D 2>&1 | sed 's/ (\([0-9.e-]*\) s)//g'
tar czf $OUT/c15.tgz -C /tmp c15
echo "total $(el) s"
