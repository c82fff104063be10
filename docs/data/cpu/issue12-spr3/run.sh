#!/usr/bin/env bash
# Issue 12 on the 2-vCPU Emerald Rapids VM, 2026-11-29 (third session): R = 32 on 10^6 rows,
# one and two threads alternating, ROUNDS rounds, the committed generic (SSE2) build.
#   bash docs/data/cpu/issue12-spr3/run.sh OUT_DIR ROUNDS [BENCH]
set -u
out=$1; rounds=$2; bench=${3:-build/apps/bench/kelp-bench-kpm}
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in $(seq 1 "$rounds"); do
  for t in 1 2; do
    OMP_NUM_THREADS=$t "$bench" --n 100 --nz 25 --moments 20 --repeats 3 --min-block 32 --max-block 32 \
      > "$out/r32_n100_t${t}_$r.jsonl" 2>/dev/null
    echo "round $r threads $t rc $? $(grep -o '"implementation":"blocked","R":32[^}]*' "$out/r32_n100_t${t}_$r.jsonl" | grep -o '"fraction_of_roof":[0-9.]*')"
  done
done
