#!/usr/bin/env bash
# Issue 12 scratch on the lent H200 (2026-11-29): the wide team kernel with the row's own V and
# W loads issued with its last batch of gathers (KpmBlockedTeamSpmmv<..., TailRowLoads = true>),
# the variant picked by KELP_KPM_WIDE_VARIANT (a scratch switch in kpm_impl.hpp, not committed):
# 0 = committed wide kernel (4 gathers, 5 teams of 256 per SM); 1 = tail loads, 4 gathers, 5 teams;
# 2 = 5 gathers, 5 teams; 3 = 7 gathers, 4 teams; 4 = 4 gathers, 4 teams; 5 = 6 gathers, 5 teams;
# 6 = 7 gathers, 5 teams. From the repository root with .gpu/ carried; PHASE=1 builds, runs the
# KPM tests per variant and round 1; PHASE=2 runs round 2 (the build is kept between calls).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c27; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
if [ "${PHASE:-1}" = 1 ]; then
  KELP_GPU_RELEASE_FLAGS="-O3 -DNDEBUG -Xptxas=-v" bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1
  echo "build rc $? at $(el) s"; tail -3 $D/build.txt
  gzip -c build-gpu/build.log > $D/build_log.gz
  for v in 0 1 2 3 4 5 6; do
    KELP_KPM_WIDE_VARIANT=$v timeout 60 build-gpu/test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*' > $D/kpm_tests_v$v.txt 2>&1
    echo "tests v$v rc $? at $(el) s"; grep -E "PASSED|FAILED" $D/kpm_tests_v$v.txt | head -3
  done
  rounds="1"
else
  rounds="2"
fi
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32"
for r in $rounds; do for v in 0 1 2 3 4 5 6; do for o in locality natural; do
  [ $(el) -gt 560 ] && break 3
  KELP_KPM_WIDE_VARIANT=$v timeout 40 build-gpu/apps/bench/kelp-bench-kpm $A --row-order $o > $D/${o:0:3}_v${v}_$r.jsonl 2>&1
  echo "$o v$v $r rc $? at $(el) s $(grep -o '"implementation":"blocked","R":32[^}]*' $D/${o:0:3}_v${v}_$r.jsonl | grep -o '"fraction_of_roof":[0-9.]*')"
done; done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1
mkdir -p $OUT/c27 && cp -r $D/. $OUT/c27/
echo "total $(el) s"
