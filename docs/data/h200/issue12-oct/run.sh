#!/usr/bin/env bash
# Issue 12, 2026-11-29 (fifth session), scratch.patch applied: eight vectors a lane, the row's
# entries shuffled, the row's V and W loaded first. KELP_KPM_QUAD_VARIANT: 0 = committed quad
# kernel (4 vectors a lane, 2 gathers, 2 teams of 256 per SM); 1 = 8 vectors a lane, 1 gather,
# teams of 128 threads, 2 per SM (up to 255 registers); 2 = the same with 2 gathers; 3 = quad
# with a row's entries loaded one per lane and handed out by warp shuffle; 4 = quad with the
# row's V and W loaded before its gathers. KPM tests per variant, three rounds of R = 32 with
# the locality order and two in natural order, then R = 8 ... 64 for the best-looking ones.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/o1; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
nvidia-smi > $D/gpu.txt 2>&1
KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
echo "build rc $? at $(el) s"; tail -3 $D/build.txt
grep -A3 "Compiling entry function.*KpmBlockedTeamSpmmv" $OUT/build.log > $D/ptxas_kpm_team.txt 2>/dev/null
for v in 0 1 2 3 4; do
  KELP_KPM_QUAD_VARIANT=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1
  echo "tests v$v rc $? at $(el) s $(grep -E 'PASSED|FAILED' $D/kpm_tests_v$v.txt | head -2 | tr '\n' ' ')"
done
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5"
for r in 1 2 3; do for o in locality natural; do for v in 0 1 2 3 4; do
  [ "$o" = natural ] && [ $r = 3 ] && continue
  [ $(el) -gt ${LIMIT:-470} ] && break 3
  KELP_KPM_QUAD_VARIANT=$v timeout 40 $B $A --min-block 32 --max-block 32 --row-order $o > $D/${o:0:3}_v${v}_$r.jsonl 2>&1
  echo "$o v$v $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_v${v}_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done; done
for v in ${ALL_VARIANTS:-0}; do
  [ $(el) -gt 540 ] && break
  KELP_KPM_QUAD_VARIANT=$v timeout 40 $B $A --min-block 8 --max-block 64 --row-order locality > $D/loc_v${v}_all.jsonl 2>&1
  echo "locality v$v all rc $? at $(el) s"
done
rm -f $OUT/build.log.gz; gzip -c $OUT/build.log > $D/build.log.gz 2>/dev/null; rm -f $OUT/build.log $OUT/configure.log
tar czf $OUT/o1.tgz -C /tmp o1
echo "total $(el) s"
