#!/usr/bin/env bash
# Issue 12 on the 2-vCPU Emerald Rapids VM, 2026-11-29 (third session), scratch.patch applied:
# a second, earlier prefetch into L2 for the host R = 32 kernel. KELP_KPM_PF_L2_AHEAD = rows
# ahead whose gathers are also prefetched with hint 2 (L2; 0 = none, the committed kernel);
# KELP_KPM_PF_L2_FAR = T: only the gathers at least T rows away (0: all). The L1 prefetch of
# every gather 2 rows ahead stays. R = 32, 10^6 rows, ROUNDS rounds, configurations and thread
# counts interleaved.
#   bash docs/data/cpu/issue12-pf/run.sh OUT_DIR ROUNDS [BENCH]
set -u
out=$1; rounds=$2; bench=${3:-build/apps/bench/kelp-bench-kpm}
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in $(seq 1 "$rounds"); do
  for cfg in "0 0" "8 0" "16 4096" "32 4096"; do
    set -- $cfg
    for t in 1 2; do
      f="$out/l2ahead$1_far$2_t${t}_$r.jsonl"
      KELP_KPM_PF_L2_AHEAD=$1 KELP_KPM_PF_L2_FAR=$2 OMP_NUM_THREADS=$t "$bench" --n 100 --nz 25 --moments 20 \
        --repeats 3 --min-block 32 --max-block 32 > "$f" 2>/dev/null
      echo "round $r l2 ahead $1 far $2 threads $t: $(grep -o '"implementation":"blocked","R":32[^}]*' "$f" | grep -o '"fraction_of_roof":[0-9.]*')"
    done
  done
done
