#!/usr/bin/env bash
# Issue 12 on the lent H200 (2026-11-28): KPM tests and kelp-bench-kpm, natural and locality row
# order, two rounds each. From the repository root with .gpu/ carried; results in $OUT.
set -u
nvidia-smi > "$OUT/gpu.txt" 2>&1
lscpu > "$OUT/lscpu.txt" 2>&1
git log -1 --format='%H %s' > "$OUT/commit.txt" 2>/dev/null || true
start=$(date +%s)
bash scripts/gpu_build.sh kelp_test_solvers kelp-bench-kpm > "$OUT/build_tail.txt" 2>&1
echo "build: $(( $(date +%s) - start )) s" >> "$OUT/build_tail.txt"
cd build-gpu || exit 1
./test/kelp_test_solvers --gtest_filter='*Kpm*:*kpm*:*Dos*' > "$OUT/kpm_tests.txt" 2>&1
tail -3 "$OUT/kpm_tests.txt"
for round in 1 2; do
  for order in natural locality; do
    ./apps/bench/kelp-bench-kpm --n 100 --nz 25 --moments 100 --repeats 5 --row-order "$order" \
      > "$OUT/kpm_${order}_${round}.jsonl" 2> "$OUT/kpm_${order}_${round}.err"
    echo "$order round $round: exit $?"
  done
done
