#!/bin/bash
# kpm-old (main at fe826d1) against kpm-final (staging + row-ahead prefetch), R = 32 and 64 only,
# 5 rounds interleaved, one thread, 256,000 rows. Usage: run.sh OUT_DIR BIN_DIR
out=$1; bin=$2; mkdir -p "$out"
for r in 1 2 3 4 5; do for b in old final; do
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false "$bin/kpm-$b" --n 40 --nz 40 --moments 20 --repeats 3 --min-block 32 --max-block 64 > "$out/${b}_$r.jsonl"
done; done
touch "$out/done"
