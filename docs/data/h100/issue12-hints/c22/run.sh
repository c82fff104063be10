#!/usr/bin/env bash
# Issue 12: committed code with the cuSPARSE SpMM peer lines for each CSR algorithm; kelp-bench-kpm
# natural and locality, 2 interleaved rounds, on one H100.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c22; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
for r in 1 2; do for o in natural locality; do
  timeout 90 build-gpu/apps/bench/kelp-bench-kpm $A --row-order $o > $D/${o:0:3}_peer_$r.jsonl 2>&1; echo "$o $r rc $? at $(el) s"
done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c22.tgz -C /tmp c22
echo "total $(el) s"
