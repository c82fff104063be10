#!/usr/bin/env bash
# Issue 12 on the 2-vCPU Emerald Rapids VM, 2026-11-29 (fourth session): R = 32, interleaved
# rounds of several builds of kelp-bench-kpm (generic SSE2 Release builds).
#   bash docs/data/cpu/issue12-fold/run.sh OUT_DIR ROUNDS "THREADS" NAME=BENCH... -- BENCH_ARGS...
# e.g. run.sh out 4 "1 2" base=/tmp/bench_956465b D=build/apps/bench/kelp-bench-kpm -- \
#        --n 100 --nz 25 --moments 20 --repeats 3 --min-block 32 --max-block 32
# Files: OUT_DIR/NAME_tTHREADS_ROUND.jsonl; one line per run on stdout. PAUSE=seconds: a pause
# before every run (the host slowed the second of two back-to-back two-thread runs).
set -u
out=$1; rounds=$2; threads=$3; shift 3
names=(); benches=()
while [ "$1" != "--" ]; do names+=("${1%%=*}"); benches+=("${1#*=}"); shift; done
shift
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in $(seq 1 "$rounds"); do
  for t in $threads; do
    for k in "${!names[@]}"; do
      f="$out/${names[$k]}_t${t}_$r.jsonl"
      sleep "${PAUSE:-0}"
      OMP_NUM_THREADS=$t "${benches[$k]}" "$@" > "$f" 2>/dev/null
      echo "$r t$t ${names[$k]} rc $? $(grep -o '"implementation":"blocked","R":32[^}]*' "$f" | grep -o '"gflops":[0-9.]*\|"fraction_of_roof":[0-9.]*' | tr '\n' ' ')"
    done
  done
done
