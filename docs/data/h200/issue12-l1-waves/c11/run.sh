#!/usr/bin/env bash
# Issue 12, final code on the GPU machine: kelp-bench-kpm natural and locality, KPM tests.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c11; mkdir -p $D
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"; tail -2 $D/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
timeout 90 $B $A > $D/nat.jsonl 2>&1; echo "nat rc $?"
timeout 90 $B $A --row-order locality > $D/loc.jsonl 2>&1; echo "loc rc $?"
(cd build-gpu/test && timeout 120 ./kelp_test_solvers --gtest_filter='*Kpm*:*kpm*:*Dos*' > $D/kpm_tests.txt 2>&1; echo "kpm tests rc $?"; tail -3 $D/kpm_tests.txt)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $D/gpu.txt 2>&1; cat $D/gpu.txt
python3 - <<PY
import json,glob,os
for f in sorted(glob.glob('$D/*.jsonl')):
  row=[]
  for l in open(f):
    try: d=json.loads(l)
    except Exception: continue
    k=d.get('kind')
    if k=='measurement' and d['implementation']=='blocked': row.append('R%d %.3f'%(d['R'],d['fraction_of_roof']))
    elif k=='measurement': row.append('%s %.3g'%(d['implementation'],d['seconds_per_vector_moment']))
    elif k=='triad': row.append('triad %.0f'%d.get('median_gbytes_per_s',0))
    elif k=='error': row.append('ERROR '+str(d)[:200])
  print(os.path.basename(f), ' '.join(row))
PY
tar czf $OUT/c11.tgz -C /tmp c11
echo "total $(( $(date +%s) - t1 )) s"
