#!/bin/bash
# A/B of the host blocked KPM kernel: kpm-old (main at fe826d1) against kpm-final (staging +
# row-ahead prefetch), interleaved. Usage: run.sh OUT_DIR BIN_DIR
out=$1; bin=$2; mkdir -p "$out"
one() { OMP_NUM_THREADS=1 OMP_PROC_BIND=false "$@"; }
two() { OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads "$@"; }
for r in 1 2 3; do for b in old final; do
  one "$bin/kpm-$b" --n 40 --nz 40 --moments 20 --repeats 3 --min-block 8 --max-block 64 > "$out/n40_1t_${b}_$r.jsonl"
done; done
for r in 1 2; do for b in old final; do
  two "$bin/kpm-$b" --n 40 --nz 40 --moments 20 --repeats 3 --min-block 8 --max-block 64 > "$out/n40_2t_${b}_$r.jsonl"
done; done
for r in 1 2; do for b in old final; do
  one "$bin/kpm-$b" --n 100 --nz 25 --moments 10 --repeats 3 --min-block 8 --max-block 64 > "$out/n100_1t_${b}_$r.jsonl"
done; done
touch "$out/done"
