#!/bin/bash
# Issue 12: the generic (SSE2) and an opt-in -march=native build of kelp-bench-kpm on the 2-core
# host, one thread, interleaved per round. Binaries beside this script: kpm-generic, kpm-native.
out=$1; rounds=$2; mkdir -p $out
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
uptime > $out/uptime.txt
for r in $(seq 1 $rounds); do
  for v in generic native; do
    ./kpm-$v --n 40 --nz 40 --moments 20 --repeats 3 --min-block 1 --max-block 64 --triad-repeats 3 --flop-repeats 2 > $out/${v}_$r.jsonl
  done
  uptime >> $out/uptime.txt
done
