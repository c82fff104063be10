#!/usr/bin/env bash
# Issue 12: committed code (new: blocks not zeroed, coalesced start copy, cuSPARSE SpMM peer lines) against stop 27's (old, ee4cbe9, .gpu/old.tar)
# on one H100: KPM tests of new, then kelp-bench-kpm natural and locality, old and new
# interleaved, 3 rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c21; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
root=$PWD; mkdir -p /tmp/old && tar -xf .gpu/old.tar -C /tmp/old && ln -s $root/.gpu /tmp/old/.gpu
(cd /tmp/old && OUT=/tmp/old-log bash scripts/gpu_build.sh kelp-bench-kpm > $D/build_old.txt 2>&1); echo "old build rc $? at $(el) s"
timeout 100 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests.txt 2>&1; echo "tests rc $? at $(el) s"; grep -E "PASSED|FAILED|SKIPPED \]" $D/kpm_tests.txt | head -5
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
for r in 1 2 3; do for b in old new; do for o in natural locality; do
  [ $(el) -gt 520 ] && break 3
  B=build-gpu/apps/bench/kelp-bench-kpm; [ $b = old ] && B=/tmp/old/build-gpu/apps/bench/kelp-bench-kpm
  timeout 40 $B $A --row-order $o > $D/${o:0:3}_$b\_$r.jsonl 2>&1; echo "$o $b $r rc $? at $(el) s"
done; done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c21.tgz -C /tmp c21
echo "total $(el) s"
