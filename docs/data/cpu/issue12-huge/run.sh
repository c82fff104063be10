#!/usr/bin/env bash
# Issue 12, huge pages for the KPM blocks: old (kpm-old) against new (kpm-huge), interleaved.
#   bash run.sh OUT_DIR BIN_DIR ROUNDS
# BIN_DIR holds kpm-old (kelp-bench-kpm without the advice) and kpm-huge (with it).
set -euo pipefail
out=$1 bin=$2 rounds=${3:-3}
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for v in old huge; do
    OMP_NUM_THREADS=1 "$bin/kpm-$v" --n 40 --nz 40 --moments 20 --repeats 3 --min-block 8 \
      --max-block 64 > "$out/n40_1t_${v}_$r.jsonl" 2>&1
  done
  for v in old huge; do
    OMP_NUM_THREADS=2 "$bin/kpm-$v" --n 40 --nz 40 --moments 20 --repeats 3 --min-block 8 \
      --max-block 64 > "$out/n40_2t_${v}_$r.jsonl" 2>&1
  done
  for v in old huge; do
    OMP_NUM_THREADS=1 "$bin/kpm-$v" --n 100 --nz 25 --moments 10 --repeats 3 --min-block 32 \
      --max-block 32 > "$out/n100_1t_${v}_$r.jsonl" 2>&1
  done
done
