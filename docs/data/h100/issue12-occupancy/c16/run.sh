#!/usr/bin/env bash
# Issue 12, committed code (narrow/wide team kernels, step sums kept on the device) on an H100:
# KPM tests, then kelp-bench-kpm natural and locality, 3 interleaved rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c16; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
timeout 120 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*:*Dos*' > $D/kpm_tests.txt 2>&1; echo "tests rc $? at $(el) s"; tail -3 $D/kpm_tests.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
for r in 1 2 3; do for o in natural locality; do
  timeout 45 $B $A --row-order $o > $D/${o:0:3}_sync_$r.jsonl 2>&1; echo "$o $r rc $? at $(el) s"
done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
python3 docs/data/h100/issue12-l1-waves/summarize.py $D 2>&1 | sed 's/ (\([0-9.e-]*\) s)//g'
tar czf $OUT/c16.tgz -C /tmp c16
echo "total $(el) s"
