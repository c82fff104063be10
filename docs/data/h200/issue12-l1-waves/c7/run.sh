#!/usr/bin/env bash
# Issue 12, H100: (a) cache carveout of the team kernel (Kokkos prefers shared for TeamPolicy),
# (b) locality row order and its part size, natural vs locality; ncu DRAM bytes at R = 32.
set -u
export PATH=/usr/local/cuda/bin:$PATH
t1=$(date +%s)
bash scripts/gpu_build.sh kelp-bench-kpm > $OUT/build.txt 2>&1; echo "build rc $? in $(( $(date +%s) - t1 )) s"; tail -2 $OUT/build.txt
B=build-gpu/apps/bench/kelp-bench-kpm
A="--n 100 --nz 25 --moments 100 --repeats 3 --max-block 32"
run() { local name=$1 mode=$2; shift 2; KELP_X_CARVEOUT=$mode timeout 70 $B $A "$@" > $OUT/$name.jsonl 2>&1; echo "$name rc $? at $(( $(date +%s) - t1 )) s"; }
run nat_def "" ; run nat_l1 l1 ; run loc_def "" --row-order locality ; run loc_l1 l1 --row-order locality
run nat_c25 25 ; run loc8k_def "" --row-order locality --part-rows 8192 ; run loc128k_def "" --row-order locality --part-rows 131072
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active"
prof() { local name=$1 mode=$2 R=$3; shift 3; KELP_X_CARVEOUT=$mode timeout 40 ncu --kernel-name-base demangled --kernel-name regex:KpmBlockedTeam --launch-skip 3 --launch-count 1 --metrics $M \
    $B --n 100 --nz 25 --moments 8 --repeats 1 --min-block $R --max-block $R --triad-repeats 1 --flop-repeats 1 "$@" > $OUT/ncu_$name.txt 2>&1; echo "ncu $name rc $?"; }
prof nat_def_R32 "" 32; prof loc_def_R32 "" 32 --row-order locality; prof nat_l1_R32 l1 32; prof nat_l1_R1 l1 1; prof nat_def_R1 "" 1
python3 - <<PY
import json,glob,os
for f in sorted(glob.glob('$OUT/*.jsonl')):
  row=[]
  for l in open(f):
    try: d=json.loads(l)
    except Exception: continue
    if d.get('kind')=='measurement' and d['implementation']=='blocked': row.append('R%d %.3f'%(d['R'],d['fraction_of_roof']))
    if d.get('kind')=='measurement' and d['implementation']=='naive': row.append('naive %.3g'%d['seconds_per_vector_moment'])
    if d.get('kind')=='triad': row.append('triad %.0f'%d.get('median_gbytes_per_s',0))
  print(os.path.basename(f), ' '.join(row))
PY
grep -H "duration\|dram__bytes\|hit_rate\|warps_active" $OUT/ncu_*.txt | sed 's/  */ /g'
obj=$(find build-gpu -name 'kpm_complex_double.cpp.o' | head -1)
cuobjdump -sass "$obj" 2>/dev/null | awk '/Function :.*KpmBlockedTeam/{p=1} /Function :/ && !/KpmBlockedTeam/{p=0} p' | gzip > $OUT/team_sass.txt.gz
echo "total $(( $(date +%s) - t1 )) s"
