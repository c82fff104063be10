#!/usr/bin/env bash
# Issue 12, H100: team kernels with the L1-preferring carveout (kernels/core/team_cache_carveout.hpp)
# against Kokkos' prefer-shared (KELP_X_CARVEOUT=1, experiment switch), interleaved; KPM natural
# and locality order; SpMV row_parallel. Outputs tarred into $OUT/c8.tgz.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
D=/tmp/c8; mkdir -p $D
bash scripts/gpu_build.sh kelp-bench-kpm kelp-bench-spmv > $D/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"; tail -2 $D/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 5 --max-block 64"
run() { local name=$1 mode=$2; shift 2; if [ -n "$mode" ]; then export KELP_X_CARVEOUT=1; else unset KELP_X_CARVEOUT; fi
  timeout 90 $B $A "$@" > $D/$name.jsonl 2>&1; echo "$name rc $? at $(( $(date +%s) - t1 )) s"; unset KELP_X_CARVEOUT; }
for r in 1 2; do
  run nat_new_$r "" ; run nat_old_$r old ; run loc_new_$r "" --row-order locality ; run loc_old_$r old --row-order locality
  run loc128k_new_$r "" --row-order locality --part-rows 131072
done
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
prof() { local name=$1 R=$2; shift 2; timeout 40 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 --metrics $M \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block $R --max-block $R --triad-repeats 1 --flop-repeats 1 "$@" > $D/ncu_$name.txt 2>&1; echo "ncu $name rc $?"; }
prof nat_R1 1; prof nat_R8 8; prof nat_R32 32; prof loc_R32 32 --row-order locality; prof loc128k_R32 32 --row-order locality --part-rows 131072
S=build-gpu/apps/bench/kelp-bench-spmv
sp() { local name=$1 mode=$2; shift 2; if [ -n "$mode" ]; then export KELP_X_CARVEOUT=1; else unset KELP_X_CARVEOUT; fi
  timeout 60 $S --algorithms row_parallel --vectors none --repeats 20 --min-sample-ms 5 "$@" > $D/spmv_$name.jsonl 2>&1; echo "spmv $name rc $? at $(( $(date +%s) - t1 )) s"; unset KELP_X_CARVEOUT; }
for r in 1 2; do
  sp lap_new_$r "" --generator laplace3d --n 100; sp lap_old_$r old --generator laplace3d --n 100
  sp rmat_new_$r "" --generator rmat --n 20; sp rmat_old_$r old --generator rmat --n 20
done
python3 - <<PY
import json,glob,os
for f in sorted(glob.glob('$D/*.jsonl')):
  row=[]
  for l in open(f):
    try: d=json.loads(l)
    except Exception: continue
    k=d.get('kind')
    if k=='measurement' and d.get('bench')=='kpm' and d['implementation']=='blocked': row.append('R%d %.3f'%(d['R'],d['fraction_of_roof']))
    elif k=='measurement' and d.get('bench')=='kpm': row.append('%s %.3g'%(d['implementation'],d['seconds_per_vector_moment']))
    elif k=='measurement': row.append('%s %.4g s %.0f GB/s'%(d.get('algorithm'),d.get('median_s',0),d.get('gbytes_per_s') or 0))
    elif k=='triad': row.append('triad %.0f'%d.get('median_gbytes_per_s',0))
    elif k=='error': row.append('ERROR '+str(d)[:200])
  print(os.path.basename(f), ' '.join(row))
PY
grep -H "duration\|dram__bytes\|hit_rate\|warps_active\|registers" $D/ncu_*.txt | sed 's/  */ /g; s#/tmp/c8/##'
grep -h '"measurement"' $D/spmv_lap_new_1.jsonl | head -1
tar czf $OUT/c8.tgz -C /tmp c8
echo "total $(( $(date +%s) - t1 )) s"
