#!/bin/bash
# Issue 12: KPM row order on the 2-core host, one thread, 4 variants interleaved per round.
out=$1; rounds=$2; mkdir -p $out
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
uptime > $out/uptime.txt
for r in $(seq 1 $rounds); do
  for v in natural locality shuffled shuffled_locality; do
    case $v in natural) a="";; locality) a="--row-order locality";; shuffled) a="--shuffle";; shuffled_locality) a="--shuffle --row-order locality";; esac
    ./kpm-order --n 40 --nz 40 --moments 20 --repeats 3 --min-block 8 --max-block 64 --triad-repeats 3 --flop-repeats 2 $a > $out/${v}_$r.jsonl
  done
  uptime >> $out/uptime.txt
done
