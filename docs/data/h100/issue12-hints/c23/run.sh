#!/usr/bin/env bash
# Issue 12: rows per part of the locality order (--part-rows) at R = 32 on one H100, committed
# code; 2 interleaved rounds (16384 is what the benchmark picks for --max-block 64).
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c23; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block 32 --max-block 32 --row-order locality"
for r in 1 2; do for p in 2048 4096 8192 16384 32768 65536; do
  [ $(el) -gt 500 ] && break 2
  timeout 60 build-gpu/apps/bench/kelp-bench-kpm $A --part-rows $p > $D/loc_part$p\_$r.jsonl 2>&1; echo "part $p $r rc $? at $(el) s"
done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c23.tgz -C /tmp c23
echo "total $(el) s"
