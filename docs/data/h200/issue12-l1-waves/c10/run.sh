#!/usr/bin/env bash
# Issue 12, H100: KPM team kernel, final shape (rows interleaved over the resident teams, L1
# carveout) vs the session-start shape (KELP_X_LEGACY=1), natural, locality, shuffled; KPM tests. Outputs tarred into $OUT/c10.tgz.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c10; mkdir -p $D
bash scripts/gpu_build.sh kelp-bench-kpm kelp_test_solvers > $D/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"; tail -2 $D/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
run() { local name=$1 envs=$2; shift 2; env $envs timeout 90 $B $A "$@" > $D/$name.jsonl 2>&1; echo "$name rc $? at $(( $(date +%s) - t1 )) s"; }
for r in 1 2; do
  run nat_new_$r "X=1"; run nat_legacy_$r "KELP_X_LEGACY=1"; run loc_new_$r "X=1" --row-order locality; run loc_legacy_$r "KELP_X_LEGACY=1" --row-order locality
done
run loc8k_new "X=1" --row-order locality --part-rows 8192; run loc128k_new "X=1" --row-order locality --part-rows 131072
run shuf_new "X=1" --shuffle; run shuf_loc_new "X=1" --shuffle --row-order locality
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
prof() { local name=$1 envs=$2 R=$3; shift 3; env $envs timeout 40 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 --metrics $M \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block $R --max-block $R --triad-repeats 1 --flop-repeats 1 "$@" > $D/ncu_$name.txt 2>&1; echo "ncu $name rc $?"; }
prof loc_R32 X=1 32 --row-order locality; prof nat_R32 X=1 32; prof loc_R1 X=1 1 --row-order locality; prof loc_R64 X=1 64 --row-order locality
(cd build-gpu/test && timeout 100 ./kelp_test_solvers --gtest_filter='*Kpm*:*kpm*:*Dos*' > $D/kpm_tests.txt 2>&1; echo "kpm tests rc $?"; tail -3 $D/kpm_tests.txt)
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
grep -H "duration\|dram__bytes\|hit_rate\|warps_active\|registers\|grid_size" $D/ncu_*.txt | sed 's/  */ /g; s#/tmp/c10/##'
tar czf $OUT/c10.tgz -C /tmp c10
echo "total $(( $(date +%s) - t1 )) s"
