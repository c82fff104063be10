#!/bin/bash
# Issue 12: host fixed-width kernel with registers of 2 doubles (before) and of the build's width
# (after: 4 with AVX, 8 with AVX-512), generic and -march=native builds, one thread, interleaved.
# Binaries beside this script: kpm-generic, kpm-native (before), kpm-generic-wide, kpm-native-wide.
out=$1; rounds=$2; mkdir -p $out
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
uptime > $out/uptime.txt
for r in $(seq 1 $rounds); do
  for v in generic native generic-wide native-wide; do
    ./kpm-$v --n 40 --nz 40 --moments 20 --repeats 3 --min-block 1 --max-block 64 --triad-repeats 3 --flop-repeats 2 > $out/${v}_$r.jsonl
  done
  uptime >> $out/uptime.txt
done
