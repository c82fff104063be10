#!/usr/bin/env bash
# Issue 12, final code on an H100: kelp-bench-kpm natural and locality.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c12; mkdir -p $D
bash scripts/gpu_build.sh kelp-bench-kpm > $D/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
timeout 40 $B $A > $D/nat.jsonl 2>&1; echo "nat rc $?"
timeout 40 $B $A --row-order locality > $D/loc.jsonl 2>&1; echo "loc rc $?"
nvidia-smi --query-gpu=name,memory.total --format=csv > $D/gpu.txt 2>&1; cat $D/gpu.txt
for f in $D/nat.jsonl $D/loc.jsonl; do echo $f; grep -o '"implementation":"[a-z]*","R":[0-9]*\|"fraction_of_roof":[0-9.]*\|"median_gbytes_per_s":[0-9.]*' $f | paste -sd' ' | sed 's/"implementation"/\n/g' | cut -c1-80; done
tar czf $OUT/c12.tgz -C /tmp c12
echo "total $(( $(date +%s) - t1 )) s"
