#!/usr/bin/env bash
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
(cd .gpu/mb && nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/kpm_mb kpm_mb.cu) || exit 1
timeout 200 /tmp/kpm_mb 100 100 25 > $OUT/kpm_mb.jsonl 2>&1; echo "mb rc $?"
cat $OUT/kpm_mb.jsonl
