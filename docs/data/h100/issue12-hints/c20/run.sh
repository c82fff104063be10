#!/usr/bin/env bash
# Issue 12: this stop's committed code (new) against stop 27's (old, ee4cbe9, from .gpu/old.tar)
# on one H100: KPM tests of new, then kelp-bench-kpm natural and locality, old and new
# interleaved, 3 rounds; then R = 32 with 1000 moments (per-call costs spread over 500 products).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c20; mkdir -p $D
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
for o in natural locality; do
  [ $(el) -gt 560 ] && break
  timeout 30 build-gpu/apps/bench/kelp-bench-kpm --n 100 --nz 25 --moments 1000 --repeats 3 --min-block 32 --max-block 32 --row-order $o > $D/${o:0:3}_m1000_1.jsonl 2>&1; echo "$o m1000 rc $? at $(el) s"
done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c20.tgz -C /tmp c20
echo "total $(el) s"
