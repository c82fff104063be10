#!/usr/bin/env bash
# dist_run_test.sh KELP SOURCE_DIR MPIEXEC: `kelp run` under mpirun (issue 14). The 2-rank solution
# of configs/poisson3d_dist_cg.yaml (partition rows, nonzeros and metis) equals the serial run's
# (the same config without its distribution section) to the solver tolerance, rank 0 alone
# writes it; a bad partition name exits non-zero with the message on every rank.
set -euo pipefail
kelp=$1
source_dir=$2
mpiexec=$3
config=$source_dir/configs/poisson3d_dist_cg.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grep -v '^distribution:' "$config" >"$work/serial.yaml"
"$kelp" run "$work/serial.yaml" --set output.solution="$work/x_serial.mtx" >"$work/serial.out"

compare() {  # compare FILE: relative 2-norm difference to the serial solution <= 1e-5
  python3 - "$work/x_serial.mtx" "$1" <<'PY'
import math, sys
def read(path):
    lines = [l for l in open(path) if not l.startswith('%')]
    n = int(lines[0].split()[0])
    return [float(l) for l in lines[1:1 + n]]
a, b = read(sys.argv[1]), read(sys.argv[2])
assert len(a) == len(b), (len(a), len(b))
diff = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
norm = math.sqrt(sum(x * x for x in a))
print(f"dist_run_test: {sys.argv[2]}: |x - x_serial| / |x_serial| = {diff / norm:.3e}")
sys.exit(0 if diff <= 1e-5 * norm else 1)
PY
}

for partition in rows nonzeros metis; do
  out=$work/$partition.out
  "$mpiexec" -n 2 --oversubscribe "$kelp" run "$config" --set distribution.partition=$partition \
    --set output.solution="$work/x_$partition.mtx" --set output.report="$work/$partition.json" >"$out" 2>&1 || {
    cat "$out"; echo "dist_run_test: partition $partition failed"; exit 1; }
  # Rank 0 alone prints the report.
  if [ "$(grep -c '^summary:' "$out")" != 1 ]; then cat "$out"; echo "dist_run_test: expected one summary"; exit 1; fi
  grep -q "distribution: 2 ranks, partition $partition" "$out"
  compare "$work/x_$partition.mtx"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r['converged'] and r['config']['distribution']['partition']=='$partition' else 1)" "$work/$partition.json"
done

# A bad partition name: non-zero exit, the message on both ranks.
status=0
"$mpiexec" -n 2 --oversubscribe "$kelp" run "$config" --set distribution.partition=bogus >"$work/bad.out" 2>&1 || status=$?
if [ "$status" = 0 ]; then cat "$work/bad.out"; echo "dist_run_test: a bad partition was accepted"; exit 1; fi
count=$(grep -c "kelp: error: .*bogus" "$work/bad.out" || true)
if [ "$count" != 2 ]; then cat "$work/bad.out"; echo "dist_run_test: expected the error on 2 ranks, got $count"; exit 1; fi
echo "dist_run_test: passed"
