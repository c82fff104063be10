#!/usr/bin/env bash
# Issue 12, 2026-11-29 (second session), second call (scratch2.patch): the same-window
# comparison. KELP_KPM_GROUP_VARIANT: 0 = the committed pair code (update_row_pair, 2 gathers,
# 4 teams of 256 per SM); 1 = the same configuration through the generic update_row_group;
# 2 = 4 vectors a lane, 2 gathers, 2 teams; 3 = 4 vectors, 4 gathers, 2 teams. KPM tests per
# variant, three rounds of R = 32 per order, then R = 8 ... 64 for variants 0 and 2.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/q2; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
nvidia-smi > $D/gpu.txt 2>&1
KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
grep -A2 "Compiling entry function.*KpmBlockedTeamSpmmv" $OUT/build.log > $D/ptxas_kpm_team.txt 2>/dev/null
for v in 0 1 2 3; do
  KELP_KPM_GROUP_VARIANT=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1
  echo "tests v$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_v$v.txt | head -3
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
for r in 1 2 3; do for v in 0 1 2 3; do for o in locality natural; do
  [ $(el) -gt ${LIMIT:-420} ] && break 3
  KELP_KPM_GROUP_VARIANT=$v timeout 40 $B $A --row-order $o > $D/${o:0:3}_v${v}_$r.jsonl 2>&1
  echo "$o v$v $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_v${v}_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done; done
for v in 0 2; do for o in locality natural; do
  [ $(el) -gt 560 ] && break 2
  KELP_KPM_GROUP_VARIANT=$v timeout 40 $B --n 100 --nz 25 --moments 100 --repeats 5 --min-block 8 --max-block 64 --row-order $o > $D/${o:0:3}_v${v}_all.jsonl 2>&1
  echo "$o v$v all rc $? at $(el) s"
done; done
rm -f $OUT/build.log.gz; gzip -c $OUT/build.log > $D/build.log.gz 2>/dev/null; rm -f $OUT/build.log $OUT/configure.log
tar czf $OUT/q2.tgz -C /tmp q2
echo "total $(el) s"
