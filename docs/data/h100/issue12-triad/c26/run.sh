#!/usr/bin/env bash
# Issue 12: the benchmark triad timed with 1, 2 and 4 elements per index (16-byte words on the
# GPU), and the blocked KPM fractions against the fastest; natural and locality, 2 interleaved rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c26; mkdir -p $D
el() { echo $(( $(date +%s) - t1 )); }
bash scripts/gpu_build.sh kelp-bench-kpm > $D/build.txt 2>&1; echo "build rc $? at $(el) s"
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
for r in 1 2; do for o in natural locality; do
  [ $(el) -gt 540 ] && break 2
  timeout 90 build-gpu/apps/bench/kelp-bench-kpm $A --row-order $o > $D/${o:0:3}_$r.jsonl 2>&1; echo "$o $r rc $? at $(el) s"
  grep '"triad"' $D/${o:0:3}_$r.jsonl | head -c 900; echo
done; done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
tar czf $OUT/c26.tgz -C /tmp c26
echo "total $(el) s"
