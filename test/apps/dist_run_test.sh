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

# Errors: every rank exits with 2 and prints the message; no hang. Each rank's exit status is
# echoed by a shell around it (so mpiexec does not kill the second rank when the first exits).
expect_error() {  # expect_error PATTERN ARGS...: a bad run (parse error, or after MPI started)
  local pattern=$1 status=0
  shift
  timeout 120 "$mpiexec" -n 2 --oversubscribe bash -c '"$0" "$@"; echo "rank exit status $?"' \
    "$kelp" run "$config" "$@" >"$work/bad.out" 2>&1 || status=$?
  local messages exits
  messages=$(grep -o "$pattern" "$work/bad.out" | wc -l)  # lines of the 2 ranks may interleave
  exits=$(grep -c "rank exit status 2" "$work/bad.out" || true)
  if [ "$status" = 124 ] || [ "$messages" -ne 2 ] || [ "$exits" -ne 2 ]; then
    cat "$work/bad.out"
    echo "dist_run_test: $*: mpiexec status $status, $messages messages, $exits ranks exited with 2 (expected 2 each)"
    exit 1
  fi
}
expect_error "unknown value 'bogus'" --set distribution.partition=bogus
expect_error "the TI Hamiltonian is complex" --set 'problem.generator={type: topological_insulator, nx: 4, ny: 4, nz: 2}'
# A preconditioner counts rows within a rank's block: the matrix name says where the block lies
# (row 9 of this 10 x 10 matrix has no diagonal; rank 1 owns rows 5-9, so its row 4 is row 5 + 4).
printf '%%%%MatrixMarket matrix coordinate real general\n10 10 10\n' >"$work/zero_diag.mtx"
for i in 1 2 3 4 5 6 7 8 9; do echo "$i $i 2.0" >>"$work/zero_diag.mtx"; done
echo "10 9 1.0" >>"$work/zero_diag.mtx"
expect_error "the local block of rank 1: its row r is row 5 + r of the distributed matrix" \
  --set "problem={matrix: {file: $work/zero_diag.mtx}}" --set 'solver.preconditioner={type: jacobi}'
echo "dist_run_test: passed"
