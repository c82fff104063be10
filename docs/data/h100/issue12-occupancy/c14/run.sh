#!/usr/bin/env bash
# Issue 12: gathers in flight x occupancy (launch bounds) in the team kernel, each variant with
# its own occupancy-derived league; H100. Two interleaved rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c14; mkdir -p $D
bash scripts/gpu_build.sh kelp-bench-kpm ${TESTS:-} > $D/build_$t1.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --min-block ${MINB:-1} --max-block 64"
for r in 1 2; do
for v in ${VARIANTS:-old-0 g4nh-0 g4nh-5 g4nh-6 g2nh-5 old-5 old-6 g4-4 g4-5 g8-0 g2-4 g2-5}; do
  for o in natural locality; do
    [ $(( $(date +%s) - t1 )) -gt ${BUDGET:-560} ] && { echo "out of time before $r $v $o"; break 3; }
    KELP_X_GATHERS=$v timeout 45 $B $A --row-order $o > $D/${o:0:3}_x$v\_$r.jsonl 2>$D/${o:0:3}_x$v\_$r.err; echo "$v $o rc $? at $(( $(date +%s) - t1 )) s"
  done
done
done
nvidia-smi --query-gpu=name --format=csv,noheader > $D/gpu.txt 2>&1; cat $D/gpu.txt
python3 docs/data/h100/issue12-l1-waves/summarize.py $D 2>&1 | tail -40 | sed 's/ (\([0-9.e-]*\) s)//g'
tar czf $OUT/c14.tgz -C /tmp c14
echo "total $(( $(date +%s) - t1 )) s"
