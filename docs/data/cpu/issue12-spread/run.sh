#!/usr/bin/env bash
# Issue 12 on the 2-vCPU Emerald Rapids VM, 2026-11-29 (third session), scratch.patch applied:
# the host R = 32 kernel's prefetch of row i + 2's gathers, all at the start of row i (the
# committed kernel, KELP_KPM_PF_SPREAD=0) or spread over row i's chunks, each chunk asking for
# the same chunk's line of every gathered row (1). R = 32, 10^6 rows, ROUNDS rounds,
# configurations and thread counts interleaved.
#   bash docs/data/cpu/issue12-spread/run.sh OUT_DIR ROUNDS [BENCH]
set -u
out=$1; rounds=$2; bench=${3:-build/apps/bench/kelp-bench-kpm}
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in $(seq 1 "$rounds"); do
  for t in 1 2; do
    for v in 0 1; do
      f="$out/spread${v}_t${t}_$r.jsonl"
      KELP_KPM_PF_SPREAD=$v OMP_NUM_THREADS=$t "$bench" --n 100 --nz 25 --moments 20 --repeats 3 \
        --min-block 32 --max-block 32 > "$f" 2>/dev/null
      echo "round $r threads $t spread $v: $(grep -o '"implementation":"blocked","R":32[^}]*' "$f" | grep -o '"fraction_of_roof":[0-9.]*')"
    done
  done
done
