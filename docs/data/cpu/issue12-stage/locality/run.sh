#!/bin/bash
# The row-ahead prefetch with the locality order: kpm-final, R = 32 only, natural and locality
# order interleaved, one thread. Usage: run.sh OUT_DIR BIN_DIR
out=$1; bin=$2; mkdir -p "$out"
for r in 1 2; do for order in natural locality; do
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false "$bin/kpm-final" --n 40 --nz 40 --moments 20 --repeats 3 --min-block 32 --max-block 32 --row-order $order > "$out/n40_${order}_$r.jsonl"
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false "$bin/kpm-final" --n 100 --nz 25 --moments 10 --repeats 3 --min-block 32 --max-block 32 --row-order $order > "$out/n100_${order}_$r.jsonl"
done; done
touch "$out/done"
