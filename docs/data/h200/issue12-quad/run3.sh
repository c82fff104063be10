#!/usr/bin/env bash
# Issue 12, 2026-11-29 (second session), third call: the committed code (KpmTeamKernelQuad for
# R = 8, 16, 32, 64; no scratch switch). KPM tests, then R = 8 ... 64 in both orders, twice.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/q3; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
nvidia-smi > $D/gpu.txt 2>&1
KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
grep -A2 "Compiling entry function.*KpmBlockedTeamSpmmv" $OUT/build.log > $D/ptxas_kpm_team.txt 2>/dev/null
timeout 120 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests.txt 2>&1
echo "tests rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests.txt | head -5
B=build-gpu/apps/bench/kelp-bench-kpm
for r in 1 2; do for o in locality natural; do
  [ $(el) -gt 520 ] && break 2
  timeout 40 $B --n 100 --nz 25 --moments 100 --repeats 5 --min-block 8 --max-block 64 --row-order $o > $D/${o:0:3}_all_$r.jsonl 2>&1
  echo "$o $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_all_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done
gzip -c $OUT/build.log > $D/build.log.gz 2>/dev/null; rm -f $OUT/build.log $OUT/configure.log
tar czf $OUT/q3.tgz -C /tmp q3
echo "total $(el) s"
