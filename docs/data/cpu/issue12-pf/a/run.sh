#!/usr/bin/env bash
# Issue 12 on the 2-vCPU Emerald Rapids VM, 2026-11-29 (third session), scratch.patch applied:
# which gathers the host R = 32 kernel prefetches. KELP_KPM_PF_NEAR = T skips the V rows within
# T rows of the row being prefetched (0: prefetch every gather, the committed kernel);
# KELP_KPM_PF_AHEAD = rows ahead (2 committed). R = 32, 10^6 rows, ROUNDS rounds, configurations
# and thread counts interleaved.
#   bash docs/data/cpu/issue12-pf/run.sh OUT_DIR ROUNDS [BENCH]
set -u
out=$1; rounds=$2; bench=${3:-build/apps/bench/kelp-bench-kpm}
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in $(seq 1 "$rounds"); do
  for cfg in "0 2" "1024 2" "1024 4" "4096 2"; do
    set -- $cfg
    for t in 1 2; do
      f="$out/near$1_ahead$2_t${t}_$r.jsonl"
      KELP_KPM_PF_NEAR=$1 KELP_KPM_PF_AHEAD=$2 OMP_NUM_THREADS=$t "$bench" --n 100 --nz 25 --moments 20 \
        --repeats 3 --min-block 32 --max-block 32 > "$f" 2>/dev/null
      echo "round $r near $1 ahead $2 threads $t: $(grep -o '"implementation":"blocked","R":32[^}]*' "$f" | grep -o '"fraction_of_roof":[0-9.]*')"
    done
  done
done
